// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The admin's editorial workflows in Chromium: scheduling in the
 * editor's time zone with pending jobs and a "Scheduled" badge; versions read, compared and restored as
 * draft, "Discard draft"; duplicating a document; a new API key's copy button and scopes from a list.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  collections: [
    {
      slug: 'posts',
      drafts: true,
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'slug', type: 'text', unique: true },
        { name: 'body', type: 'textarea' },
        { name: 'views', type: 'number' },
      ],
    },
  ],
};

const ADMIN = { name: 'Grace', email: 'grace@example.com', password: 'correct horse 2' };
const STEP = 20_000;
const SHOTS = path.join(import.meta.dir, '../..', 'test-artifacts', 'admin');

describe.skipIf(!hasChromium())('admin workflows', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let postId: number;
  let pageErrors: string[] = [];
  const admin = (p = '') => `${t.url}/admin${p}`;

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer(config);
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    const post = await t.request('POST', '/posts', {
      token: s.token,
      body: { title: 'First words', slug: 'first', body: 'One', status: 'published' },
    });
    postId = post.body.doc.id;
    // The editor sits in New York; the server keeps UTC.
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN, { timezoneId: 'America/New_York' }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test(
    'capability 2: schedule an unpublish in the editor’s time zone, see it pending and in the list, cancel it',
    async () => {
      await page.goto(admin(`/collections/posts/${postId}`));
      await page.getByRole('heading', { name: 'First words' }).waitFor();
      const panel = page.getByRole('region', { name: 'Schedule' });
      await panel.getByLabel('Action').selectOption('unpublish');
      await panel.getByLabel(/Date and time/).fill('2026-12-24T09:30');
      expect(await panel.textContent()).toContain('America/New_York');
      await panel.getByText('Dec 24, 2026, 2:30 PM UTC').waitFor();
      await panel.getByRole('button', { name: 'Schedule' }).click();
      await page.getByRole('status').filter({ hasText: 'Unpublishing scheduled' }).waitFor();
      const jobs = page.getByRole('list', { name: 'Pending jobs' });
      await jobs.getByText('Dec 24, 2026, 9:30 AM (America/New_York)').waitFor();
      const stored = await t.request('GET', `/posts/${postId}/schedule`, { token: s.token });
      expect(stored.body.docs).toMatchObject([{ action: 'unpublish', at: '2026-12-24T14:30:00.000Z' }]);

      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Posts' }).click();
      await page
        .getByRole('row', { name: /First words/ })
        .getByText('Scheduled')
        .waitFor();

      await page.getByRole('link', { name: 'First words' }).click();
      await page.getByRole('button', { name: /Cancel unpublish/i }).click();
      await page.getByRole('status').filter({ hasText: 'Scheduled job cancelled' }).waitFor();
      await page.getByRole('list', { name: 'Pending jobs' }).waitFor({ state: 'detached' });
      expect((await t.request('GET', `/posts/${postId}/schedule`, { token: s.token })).body.docs).toEqual([]);
    },
    STEP,
  );

  test(
    'capability 4: open an old version read-only, compare it field by field, restore it as draft, then discard the draft',
    async () => {
      await t.request('PATCH', `/posts/${postId}`, { token: s.token, body: { body: 'Two', status: 'published' } });
      await t.request('PATCH', `/posts/${postId}?draft=true`, { token: s.token, body: { body: 'Three' } });
      await page.goto(admin(`/collections/posts/${postId}`));
      await page.getByRole('heading', { name: 'First words' }).waitFor();
      const panel = page.getByRole('region', { name: 'Versions' });
      const oldest = panel.getByRole('listitem').last();
      await oldest.getByRole('button').first().click();
      const viewer = page.getByRole('dialog', { name: /^Version of / });
      await viewer.waitFor();
      // Exact time, to the second.
      expect(await viewer.locator('time').textContent()).toMatch(/\d:\d\d:\d\d/);
      // Compared with the current version by default: only `body` differs.
      await viewer.getByText('One field differs.').waitFor();
      expect(await viewer.locator('tr.changed').count()).toBe(1);
      expect(await viewer.locator('tr.changed').getAttribute('data-field')).toBe('body');
      expect(await viewer.locator('tr[data-field="body"]').textContent()).toContain('One');
      expect(await viewer.locator('tr[data-field="body"]').textContent()).toContain('Three');
      // Read-only: no inputs in the viewer besides the "compare with" choice.
      expect(await viewer.locator('input, textarea').count()).toBe(0);
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SHOTS, 'version-compare-1366.png') });

      await viewer.getByRole('button', { name: 'Restore as draft' }).click();
      await page
        .getByRole('dialog', { name: 'Restore as draft?' })
        .getByRole('button', { name: 'Restore as draft' })
        .click();
      await page.getByRole('status').filter({ hasText: 'Restored as draft' }).waitFor();
      expect((await t.request('GET', `/posts/${postId}?draft=true`, { token: s.token })).body.body).toBe('One');
      expect((await t.request('GET', `/posts/${postId}`, { token: s.token })).body.body).toBe('Two');
      expect(await page.locator('#field-body').inputValue()).toBe('One');

      await page.getByRole('button', { name: 'Discard draft' }).click();
      await page
        .getByRole('dialog', { name: 'Discard the draft?' })
        .getByRole('button', { name: 'Discard draft' })
        .click();
      await page.getByRole('status').filter({ hasText: 'Draft discarded' }).waitFor();
      expect((await t.request('GET', `/posts/${postId}?draft=true`, { token: s.token })).body.body).toBe('Two');
      expect(await page.locator('#field-body').inputValue()).toBe('Two');
      expect(await page.getByText('changes pending').count()).toBe(0);
    },
    STEP,
  );

  test(
    'capability 6: duplicate has the server copy the post (a draft, slug marked) and opens the copy',
    async () => {
      await page.goto(admin(`/collections/posts/${postId}`));
      await page.getByRole('heading', { name: 'First words' }).waitFor();
      const duplicateCalls: string[] = [];
      const record = (request: { method(): string; url(): string }) => {
        const { pathname } = new URL(request.url());
        if (request.method() === 'POST' && /^\/api\/cms\/posts(\/\d+\/duplicate)?$/.test(pathname))
          duplicateCalls.push(pathname);
      };
      page.on('request', record);
      await page.getByRole('button', { name: 'More actions' }).click();
      await page.getByRole('button', { name: 'Duplicate' }).click();
      await page.getByRole('heading', { name: 'First words (copy)' }).waitFor();
      page.off('request', record);
      await page.getByText('Post created.').waitFor();
      expect(await page.locator('#field-slug').inputValue()).toBe('first - Copy');
      expect(await page.locator('#field-body').inputValue()).toBe('Two');
      const copy = await t.request(
        'GET',
        `/posts?draft=true&where[slug][equals]=${encodeURIComponent('first - Copy')}`,
        {
          token: s.token,
        },
      );
      expect(copy.body.docs).toMatchObject([{ title: 'First words (copy)', body: 'Two', status: 'draft' }]);
      expect(page.url()).toEndWith(`/collections/posts/${copy.body.docs[0].id}`);
      expect(copy.body.docs[0].id).not.toBe(postId);
      // One request made the copy: the REST duplicate, not a create from the form's values.
      expect(duplicateCalls).toEqual([`/api/cms/posts/${postId}/duplicate`]);
    },
    STEP,
  );

  test(
    'capability 6: a new API key gets scopes from a grid and a copy button for the key',
    async () => {
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
      await page.goto(admin('/collections/api-keys/create'));
      await page.getByLabel('Name').fill('Site build');
      await page.locator('#field-user').fill('Grace');
      await page.getByRole('option', { name: /Grace/ }).click();
      await page.getByRole('checkbox', { name: 'posts:read' }).check();
      await page.getByRole('checkbox', { name: 'posts:create' }).check();
      await page.getByRole('checkbox', { name: 'media:*' }).check();
      expect(await page.getByRole('checkbox', { name: 'media:read' }).isDisabled()).toBe(true);
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByText('API key created.').waitFor();
      const key = (await page.locator('#new-secret').textContent())!.trim();
      expect(key).toMatch(/^cms_/);
      await page.getByRole('button', { name: 'Copy key' }).click();
      await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      const keys = await t.request('GET', '/api-keys', { token: s.token });
      expect(keys.body.docs[0].scopes).toEqual(['posts:read', 'posts:create', 'media:*']);
      expect((await t.request('GET', '/posts', { token: key })).status).toBe(200);
      expect((await t.request('DELETE', `/posts/${postId}`, { token: key })).status).toBe(403);
    },
    STEP,
  );

  test('no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
