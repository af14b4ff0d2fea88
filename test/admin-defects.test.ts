/**
 * The admin's small defects an editor trips over in a day, in Chromium against a real server, worst
 * first: Enter in a relationship search, the deliveries table at 375 px, the action bar on phones, the
 * upload queue, the Columns menu, the two-factor step, the email after a lost session, readable
 * sessions, toasts over the action bar, and the shortcut help.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { buildAdmin } from '../admin/build.ts';
import { flushWebhooks } from '../src/webhooks/start-webhooks.ts';
import { hasChromium, type Browser } from './browser.ts';
import { openAdminLoggedIn } from './support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from './harness.ts';
import { answer, startReceiver, type Receiver } from './webhook-receiver.ts';
import type { UserConfig } from '../src/config/types.ts';

const ADMIN = { name: 'Eve', email: 'eve@example.com', password: 'correct horse 9' };
const STEP = 20_000;

describe.skipIf(!hasChromium())('admin defects', () => {
  let receiver: Receiver;
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let pageErrors: string[] = [];
  const admin = (p = '') => `${t.url}/admin${p}`;
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - innerWidth);

  beforeAll(async () => {
    await buildAdmin();
    receiver = startReceiver(answer(410));
    const config: UserConfig = {
      collections: [
        { slug: 'authors', admin: { useAsTitle: 'name' }, fields: [{ name: 'name', type: 'text', required: true }] },
        {
          slug: 'notes',
          admin: { useAsTitle: 'title' },
          fields: [
            { name: 'title', type: 'text' },
            { name: 'author', type: 'relationship', relationTo: 'authors' },
          ],
        },
        {
          slug: 'posts',
          drafts: true,
          admin: { useAsTitle: 'title' },
          fields: [
            { name: 'title', type: 'text', required: true },
            { name: 'body', type: 'textarea' },
            { name: 'summary', type: 'textarea' },
            { name: 'author', type: 'relationship', relationTo: 'authors' },
            { name: 'views', type: 'number' },
            { name: 'notes', type: 'textarea' },
          ],
        },
      ],
      webhooks: [{ url: receiver.url, collections: ['authors'], globals: [] }],
    };
    t = await startTestServer(config);
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    for (const name of ['Alice Adams', 'Bob Brown']) await t.request('POST', '/authors', { token: s.token, body: { name } });
    await flushWebhooks(t.cms);
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await receiver?.stop();
  });

  test('Enter in a relationship search picks the highlighted document or does nothing; it never submits the form', async () => {
    for (const slug of ['notes', 'posts']) {
      await page.goto(admin(`/collections/${slug}/create`));
      await page.locator('#field-title').fill(`Typed ${slug}`);
      const search = page.getByRole('combobox');
      await search.fill('Alice');
      await page.getByRole('option', { name: /Alice Adams/ }).waitFor();
      await search.press('Enter'); // nothing highlighted: nothing happens
      await page.waitForTimeout(400);
      expect(page.url()).toEndWith('/create');
      expect((await t.request('GET', `/${slug}?draft=true`, { token: s.token })).body.totalDocs).toBe(0);
      await search.press('ArrowDown');
      await search.press('Enter');
      await page.locator('.chip', { hasText: 'Alice Adams' }).waitFor();
      expect(page.url()).toEndWith('/create');
      expect((await t.request('GET', `/${slug}?draft=true`, { token: s.token })).body.totalDocs).toBe(0);
    }
    expect(pageErrors).toEqual([]);
  }, STEP);

  test('the webhook deliveries table scrolls inside its box at 375 px', async () => {
    expect((await t.request('GET', '/webhook-deliveries', { token: s.token })).body.totalDocs).toBeGreaterThan(0);
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(admin('/operations/webhooks'));
    await page.locator('table.ops-table').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(admin('/operations/webhooks'));
    await page.locator('table.ops-table').waitFor();
    expect(await overflow()).toBeLessThanOrEqual(0);
  }, STEP);
});
