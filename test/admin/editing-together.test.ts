// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The admin's editors that need the server's help, in Chromium against a real server: conditions asked
 * as the editor types, the picker across several collections, a join's table and its create button,
 * autosave with its last-saved time, and document locks seen from two browsers (take over, then the
 * other editor's save is refused and their text kept).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config = {
  collections: [
    {
      slug: 'categories',
      admin: { useAsTitle: 'name' },
      fields: [
        { name: 'name', type: 'text', required: true },
        { name: 'posts', type: 'join', collection: 'posts', on: 'category' },
      ],
    },
    {
      slug: 'posts',
      drafts: { autosave: { interval: 300 } },
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'category', type: 'relationship', relationTo: 'categories' },
        { name: 'link', type: 'relationship', relationTo: ['categories', 'posts'] },
        { name: 'hasCta', type: 'checkbox' },
        {
          name: 'ctaText',
          type: 'text',
          admin: { condition: (data: Record<string, unknown>) => Boolean(data.hasCta) },
        },
        { name: 'body', type: 'textarea' },
      ],
    },
  ],
} as unknown as UserConfig;

const GRACE = { name: 'Grace Hopper', email: 'grace@example.com', password: 'correct horse 1' };
const LIN = { name: 'Lin Editor', email: 'lin@example.com', password: 'correct horse 2' };
const STEP = 20_000;

describe.skipIf(!hasChromium())('admin: editors backed by the server, and editing together', () => {
  let t: TestServer;
  let s: Session;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let newsId: number;
  let helloId: number;
  const admin = (p = '') => `${t.url}/admin${p}`;

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer(config);
    expect((await t.request('POST', '/users/first-register', { body: { ...GRACE } })).status).toBe(200);
    s = await t.login(GRACE.email, GRACE.password);
    expect((await t.request('POST', '/users', { token: s.token, body: { ...LIN, role: 'editor' } })).status).toBe(201);
    newsId = (await t.request('POST', '/categories', { token: s.token, body: { name: 'News' } })).body.doc.id;
    helloId = (
      await t.request('POST', '/posts', {
        token: s.token,
        body: { title: 'Hello', category: newsId, status: 'published' },
      })
    ).body.doc.id;
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, GRACE));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test(
    'a field with a condition shows and hides as the editor types',
    async () => {
      await page.goto(admin('/collections/posts/create'));
      await page.locator('#field-title').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.locator('#field-ctaText').count()).toBe(0);
      await page.getByLabel('Has Cta').check();
      await page.locator('#field-ctaText').waitFor();
      await page.getByLabel('Has Cta').uncheck();
      await page.locator('#field-ctaText').waitFor({ state: 'detached' });
    },
    STEP,
  );

  test(
    'the polymorphic picker searches every collection it names and saves { relationTo, value }',
    async () => {
      await page.goto(admin(`/collections/posts/${helloId}`));
      await page.getByRole('heading', { name: 'Hello' }).waitFor();
      const box = page.locator('#field-link');
      await box.focus();
      await page.keyboard.type('e');
      const options = page.getByRole('listbox', { name: 'Matching documents' }).getByRole('option');
      await options.filter({ hasText: 'News' }).waitFor();
      await options.filter({ hasText: 'Hello' }).waitFor();
      expect(await options.filter({ hasText: 'News' }).textContent()).toContain('Category');
      await page.keyboard.press('ArrowDown');
      const first = await page.locator('[role=option].active').textContent();
      await page.keyboard.press('Enter');
      expect(first).toContain('News');
      await page.getByRole('list', { name: 'Selected' }).getByText('News (Category)').waitFor();
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
      const draft = (await t.request('GET', `/posts/${helloId}?draft=true&depth=0`, { token: s.token })).body;
      expect(draft.link).toEqual({ relationTo: 'categories', value: newsId });
    },
    STEP,
  );

  test(
    'autosave saves the draft while typing, shows when, and never publishes',
    async () => {
      await page.locator('#field-body').fill('Typed and kept');
      await page
        .getByTestId('autosave-status')
        .filter({ hasText: /Draft autosaved at/ })
        .waitFor();
      const draft = (await t.request('GET', `/posts/${helloId}?draft=true`, { token: s.token })).body;
      expect(draft.body).toBe('Typed and kept');
      const live = (await t.request('GET', `/posts/${helloId}`, { token: s.token })).body;
      expect(live.body ?? null).toBeNull();
      expect(live.status).toBe('published');
    },
    STEP,
  );

  test(
    'a join lists the documents pointing here and creates one already pointing here',
    async () => {
      await page.goto(admin(`/collections/categories/${newsId}`));
      await page.getByRole('heading', { name: 'News' }).waitFor();
      const table = page.locator('[data-path="posts"] table');
      await table.getByRole('link', { name: 'Hello' }).waitFor();
      await page.getByRole('button', { name: 'New post here' }).click();
      await page.waitForURL(/\/collections\/posts\/create$/);
      await page.getByRole('list', { name: 'Selected' }).getByText('News').waitFor();
      await page.locator('#field-title').fill('Second');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.waitForURL(/\/collections\/posts\/\d+$/);
      await page.goto(admin(`/collections/categories/${newsId}`));
      await page.locator('[data-path="posts"] table').getByRole('link', { name: 'Second' }).waitFor();
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  test('locks: another editor sees who is editing, takes over, and the first is made read-only with the text kept', async () => {
    await page.goto(admin(`/collections/categories/${newsId}`));
    await page.getByRole('heading', { name: 'News' }).waitFor();
    await page.waitForLoadState('networkidle');
    // Typed, not saved yet, when the other editor arrives.
    await page.locator('#field-name').fill('News, edited by Grace');
    const other = await openAdminLoggedIn(t, LIN);
    try {
      const p2 = other.page;
      await p2.goto(admin(`/collections/categories/${newsId}`));
      await p2.getByText('Grace Hopper is editing').waitFor();
      expect(await p2.locator('#field-name').isDisabled()).toBe(true);
      await p2.getByRole('button', { name: 'Take over' }).click();
      await p2.getByRole('dialog').getByRole('button', { name: 'Take over' }).click();
      await p2.getByRole('status').filter({ hasText: 'You are editing now' }).waitFor();
      expect(await p2.locator('#field-name').isDisabled()).toBe(false);
      // The first editor is told within a few seconds, before trying to save, and can no longer edit.
      await page.getByRole('alert').filter({ hasText: 'Lin Editor took over' }).waitFor({ timeout: 10_000 });
      expect(await page.locator('#field-name').isDisabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
      expect(await page.locator('#field-name').inputValue()).toBe('News, edited by Grace');
      expect((await t.request('GET', `/categories/${newsId}`, { token: s.token })).body.name).toBe('News');
      const kept = await page.evaluate(() =>
        Object.keys(localStorage)
          .filter((k) => k.startsWith('cms-unsaved:'))
          .map((k) => localStorage.getItem(k)),
      );
      expect(kept.join()).toContain('News, edited by Grace');
    } finally {
      await other.browser.close();
    }
  }, 40_000);

  test('locks: the same editor opening the document in another tab ends editing in the first at once', async () => {
    const first = await page.context().newPage();
    const second = await page.context().newPage();
    for (const tab of [first, second]) tab.on('pageerror', (e) => pageErrors.push(String(e)));
    try {
      await first.goto(admin(`/collections/posts/${helloId}`));
      await first.getByRole('heading', { name: 'Hello' }).waitFor();
      await first.waitForLoadState('networkidle');
      expect(await first.locator('#field-title').isDisabled()).toBe(false);
      // From now on the first tab cannot learn it from the server (its reads of the lock fail): only the
      // second tab can tell it.
      await first.route(/\/lock(\?|$)/, (r) => (r.request().method() === 'GET' ? r.abort() : r.continue()));

      await second.goto(admin(`/collections/posts/${helloId}`));
      await second.getByRole('heading', { name: 'Hello' }).waitFor();
      await second.waitForLoadState('networkidle');
      // Same user: the second tab takes the lock without asking, and edits.
      expect(await second.locator('#field-title').isDisabled()).toBe(false);
      await first.getByRole('alert').filter({ hasText: 'You opened this document in another window' }).waitFor();
      expect(await first.locator('#field-title').isDisabled()).toBe(true);
      expect(await first.getByRole('button', { name: 'Save draft' }).isDisabled()).toBe(true);
      expect(await first.getByRole('button', { name: 'Unpublish' }).isDisabled()).toBe(true);
      await second.locator('#field-title').fill('Hello again');
      expect(await second.locator('#field-title').inputValue()).toBe('Hello again');
    } finally {
      await first.close();
      await second.close();
    }
    expect(pageErrors).toEqual([]);
  }, 40_000);

  test(
    'at 375 px the join table and the picker fit',
    async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      for (const path of [`/collections/categories/${newsId}`, `/collections/posts/${helloId}`]) {
        await page.goto(admin(path));
        await page.locator('h1').waitFor();
        await page.waitForLoadState('networkidle');
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        ).toBe(0);
      }
      await page.setViewportSize({ width: 1366, height: 900 });
    },
    STEP,
  );
});
