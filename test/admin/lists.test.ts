// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * Lists that scale in Chromium: a filter built from the field types gives the
 * same documents as the API with the same `where` (kept in the URL); page size; a column choice that
 * survives a reload; bulk publish through `PATCH /:collection?where[id][in]=…` sending one publish
 * webhook per row; a bulk field edit that lists the row the server refused; bulk delete.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { APIError } from '../../src/errors.ts';

const ADMIN = { name: 'Ada', email: 'ada@example.com', password: 'correct horse 2' };
const STEP = 30_000;
const SHOTS = path.join(import.meta.dir, '../..', 'test-artifacts', 'admin');
const CATEGORIES = ['news', 'guide', 'opinion'];

describe.skipIf(!hasChromium())('admin lists', () => {
  let t: TestServer;
  let hook: Receiver;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let pageErrors: string[] = [];
  const admin = (p = '') => `${t.url}/admin${p}`;
  const rowTitles = () => page.locator('tbody td.title-cell').allTextContents();

  beforeAll(async () => {
    await adminBuilt();
    hook = startReceiver();
    t = await startTestServer({
      webhooks: [{ url: hook.url, events: ['publish'], collections: ['posts'] }],
      collections: [
        {
          slug: 'posts',
          drafts: true,
          admin: { useAsTitle: 'title' },
          // A rule the browser cannot know: one post is frozen, so a bulk edit fails for it alone.
          hooks: {
            beforeChange: [
              ({ data, originalDoc }) => {
                if (originalDoc?.title === 'Post 05' && data?.slug !== originalDoc?.slug)
                  throw new APIError(400, 'Post 05 is frozen: its slug cannot change.', 'slug');
                return data;
              },
            ],
          },
          fields: [
            { name: 'title', type: 'text', required: true },
            { name: 'slug', type: 'text', unique: true },
            { name: 'views', type: 'number' },
            { name: 'category', type: 'select', options: CATEGORIES },
            { name: 'featured', type: 'checkbox' },
          ],
        },
      ],
    });
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    // 25 drafts: post 01 … post 25, views = 5·n, categories in turn, every third featured.
    for (let n = 1; n <= 25; n++) {
      const title = `Post ${String(n).padStart(2, '0')}`;
      await t.request('POST', '/posts?draft=true', {
        token: s.token,
        body: { title, slug: `post-${n}`, views: n * 5, category: CATEGORIES[n % 3], featured: n % 3 === 0 },
      });
    }
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await hook?.stop();
  });

  test(
    'a filter built in the UI lists the same documents as the API given the same where, and survives a reload',
    async () => {
      await page.goto(admin('/collections/posts'));
      await page.getByRole('heading', { name: 'Posts' }).waitFor();
      await page.getByRole('button', { name: 'Filters' }).click();
      const panel = page.getByRole('form', { name: 'Filters' });
      await panel.getByRole('button', { name: 'Add a filter' }).click();
      await panel.getByLabel('Field of filter 1').selectOption({ label: 'Views' });
      await panel.getByLabel('Operator of filter 1').selectOption({ label: '≥' });
      await panel.getByLabel('Value of filter 1').fill('40');
      await panel.getByRole('button', { name: 'Add a filter' }).click();
      await panel.getByLabel('Field of filter 2').selectOption({ label: 'Category' });
      await panel.getByLabel('Value of filter 2').selectOption('news');
      await panel.getByRole('button', { name: 'Apply' }).click();
      await page.getByText('6 documents').waitFor();

      // The address carries the API's own where.
      const url = new URL(page.url());
      const where = [...url.searchParams].filter(([k]) => k.startsWith('where['));
      expect(where).toEqual([
        ['where[and][0][views][gte]', '40'],
        ['where[and][1][category][equals]', 'news'],
      ]);
      const api = await t.request('GET', `/posts?draft=true&limit=100&sort=-updatedAt&${new URLSearchParams(where)}`, {
        token: s.token,
      });
      const expected = api.body.docs.map((d: { title: string }) => d.title);
      // And the same set as an independent reading of the condition (category news ⇔ n divisible by 3; views = 5n ≥ 40).
      expect(expected.sort()).toEqual(['Post 09', 'Post 12', 'Post 15', 'Post 18', 'Post 21', 'Post 24']);
      expect((await rowTitles()).sort()).toEqual(expected);

      await page.reload();
      await page.getByText('6 documents').waitFor();
      expect((await rowTitles()).sort()).toEqual(expected);
      await page.getByRole('form', { name: 'Filters' }).getByLabel('Value of filter 1').waitFor();
      expect(await page.getByRole('form', { name: 'Filters' }).getByLabel('Value of filter 1').inputValue()).toBe('40');

      await page.getByRole('form', { name: 'Filters' }).getByRole('button', { name: 'Clear' }).click();
      await page.getByText('25 documents').waitFor();
      expect(page.url()).not.toContain('where');
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  test(
    'page size changes the page and stays in the URL',
    async () => {
      await page.goto(admin('/collections/posts'));
      await page.getByText('25 documents').waitFor();
      expect(await rowTitles()).toHaveLength(20);
      await page.getByLabel('Per page').selectOption('10');
      await page.getByText('Page 1 of 3').waitFor();
      expect(await rowTitles()).toHaveLength(10);
      expect(new URL(page.url()).searchParams.get('limit')).toBe('10');
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('11–20 of 25').waitFor();
      await page.reload();
      await page.getByText('11–20 of 25').waitFor();
      expect(await rowTitles()).toHaveLength(10);
    },
    STEP,
  );

  test(
    'the column choice is kept per user and collection across a reload; any column sorts',
    async () => {
      await page.goto(admin('/collections/posts'));
      await page.getByText('25 documents').waitFor();
      const headers = () => page.locator('thead th[scope=col]').allTextContents();
      expect(await headers()).toEqual(['', 'Title', 'Slug', 'Views', 'Category', 'Status', 'Updated']);
      await page.getByText('Columns', { exact: true }).click();
      await page.getByRole('checkbox', { name: 'Slug' }).uncheck();
      await page.getByRole('checkbox', { name: 'Featured' }).check();
      await page.getByRole('checkbox', { name: 'Created' }).check();
      expect(await headers()).toEqual(['', 'Title', 'Views', 'Category', 'Featured', 'Status', 'Created', 'Updated']);
      await page.reload();
      await page.getByText('25 documents').waitFor();
      expect(await headers()).toEqual(['', 'Title', 'Views', 'Category', 'Featured', 'Status', 'Created', 'Updated']);
      const saved = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('cms-columns:')));
      expect(saved).toEqual([`cms-columns:${s.user.id}:posts`]);

      // A column that was not shown before sorts like the others.
      await page.getByRole('button', { name: 'Featured' }).click();
      await page.waitForURL(/sort=featured/);
      await page.getByRole('button', { name: 'Featured' }).click();
      await page.waitForURL(/sort=-featured/);
      await page.locator('tbody tr').first().getByText('Yes').waitFor();
    },
    STEP,
  );

  test(
    'bulk publish of 3 selected rows sends one publish webhook for each of them',
    async () => {
      await page.goto(admin('/collections/posts?sort=title'));
      await page.getByText('25 documents').waitFor();
      const ids: number[] = [];
      for (const title of ['Post 01', 'Post 02', 'Post 03']) {
        await page.getByRole('checkbox', { name: `Select ${title}` }).check();
        const r = await t.request('GET', `/posts?draft=true&where[title][equals]=${encodeURIComponent(title)}`, {
          token: s.token,
        });
        ids.push(r.body.docs[0].id);
      }
      const bar = page.getByRole('toolbar', { name: 'Bulk actions' });
      await bar.getByText('3 selected').waitFor();
      await page.screenshot({ path: path.join(SHOTS, 'list-bulk-1366.png') });
      await bar.getByRole('button', { name: 'Publish', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Published 3 posts' }).waitFor();
      await bar.waitFor({ state: 'detached' });

      await flushWebhooks(t.cms);
      const received = await hook.waitFor(3);
      expect(received.map((r) => r.json.event)).toEqual(['publish', 'publish', 'publish']);
      expect(received.map((r) => r.json.id).sort()).toEqual([...ids].sort());
      await Bun.sleep(100);
      expect(hook.requests).toHaveLength(3);
      const live = await t.request('GET', `/posts?where[id][in]=${ids.join(',')}`, { token: s.token });
      expect(live.body.docs.map((d: { status: string }) => d.status)).toEqual(['published', 'published', 'published']);
      await page
        .getByRole('row', { name: /Post 01/ })
        .getByText('Published')
        .waitFor();
    },
    STEP,
  );

  test(
    'a bulk field edit lists the row the server refused and keeps it selected; bulk delete',
    async () => {
      await page.goto(admin('/collections/posts?sort=title'));
      await page.getByText('25 documents').waitFor();
      await page.getByRole('checkbox', { name: 'Select Post 04' }).check();
      await page.getByRole('checkbox', { name: 'Select Post 05' }).check();
      await page.getByRole('toolbar', { name: 'Bulk actions' }).getByRole('button', { name: 'Edit a field' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit 2 posts' });
      await dialog.getByLabel('Field to set').selectOption({ label: 'Slug' });
      await dialog.getByLabel('Slug', { exact: true }).fill('same-slug');
      await dialog.getByRole('button', { name: 'Save as drafts' }).click();
      // The server refuses one of the two; it is named with the server's reason, the other is saved.
      const alert = page.getByRole('alert').filter({ hasText: 'could not be changed' });
      await alert.getByText('Post 05').waitFor();
      expect(await alert.textContent()).toContain('Post 05: Post 05 is frozen: its slug cannot change.');
      const edited = await t.request('GET', '/posts?draft=true&where[slug][equals]=same-slug', { token: s.token });
      expect(edited.body.docs.map((d: { title: string }) => d.title)).toEqual(['Post 04']);
      await page.getByRole('toolbar', { name: 'Bulk actions' }).getByText('1 selected').waitFor();
      expect(await page.getByRole('checkbox', { name: 'Select Post 05' }).isChecked()).toBe(true);

      await page.getByRole('checkbox', { name: 'Select Post 06' }).check();
      await page.getByRole('toolbar', { name: 'Bulk actions' }).getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('dialog', { name: 'Delete 2 posts?' }).getByRole('button', { name: 'Delete' }).click();
      await page.getByText('23 documents').waitFor();
      const left = await t.request('GET', '/posts?draft=true&limit=100', { token: s.token });
      expect(left.body.docs.map((d: { title: string }) => d.title)).not.toContain('Post 05');
      expect(left.body.docs.map((d: { title: string }) => d.title)).not.toContain('Post 06');
      expect(left.body.totalDocs).toBe(23);
    },
    STEP,
  );

  test(
    'the list with its tools fits a 375 px screen',
    async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(admin('/collections/posts'));
      await page.getByText('23 documents').waitFor();
      await page.getByRole('button', { name: 'Filters' }).click();
      await page.getByRole('form', { name: 'Filters' }).getByRole('button', { name: 'Add a filter' }).click();
      await page.getByRole('checkbox', { name: 'Select all rows on this page' }).check();
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      await page.screenshot({ path: path.join(SHOTS, 'list-tools-375.png'), fullPage: true });
      expect(overflow).toBe(0);
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.getByRole('button', { name: 'Clear selection' }).click();
      await page.screenshot({ path: path.join(SHOTS, 'list-tools-1366.png') });
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
