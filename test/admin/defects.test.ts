// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The admin's small defects an editor trips over in a day, in Chromium against a real server, worst
 * first: Enter in a relationship search, the deliveries table at 375 px, the action bar on phones, the
 * upload queue, the Columns menu, the two-factor step, the email after a lost session, readable
 * sessions, toasts over the action bar, and the shortcut help.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { answer, startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { png } from '../support/media-fixtures.ts';
import { fromBase32, referenceTOTP } from '../support/totp-reference.ts';

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
    await adminBuilt();
    receiver = startReceiver(answer(410));
    const config: UserConfig = {
      localization: { locales: ['en', 'de'], defaultLocale: 'en' },
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
          livePreview: { url: ({ doc }) => `http://127.0.0.1:9/posts/${doc.id}` },
          fields: [
            { name: 'title', type: 'text', required: true, localized: true },
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
    for (const name of ['Alice Adams', 'Bob Brown'])
      await t.request('POST', '/authors', { token: s.token, body: { name } });
    await flushWebhooks(t.cms);
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    await receiver?.stop();
  });

  test(
    'Enter in a relationship search picks the highlighted document or does nothing; it never submits the form',
    async () => {
      for (const slug of ['notes', 'posts']) {
        await page.goto(admin(`/collections/${slug}/create`));
        await page.locator('#field-title').fill(`Typed ${slug}`);
        const search = page.getByRole('combobox', { name: 'Author' });
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
    },
    STEP,
  );

  test(
    'the webhook deliveries table scrolls inside its box at 375 px',
    async () => {
      expect((await t.request('GET', '/webhook-deliveries', { token: s.token })).body.totalDocs).toBeGreaterThan(0);
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(admin('/operations/webhooks'));
      await page.locator('table.ops-table').waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(admin('/operations/webhooks'));
      await page.locator('table.ops-table').waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
    },
    STEP,
  );
  test(
    'the action bar stays in reach on a phone, and "Publish changes" keeps one line at 1366 px',
    async () => {
      const made = await t.request('POST', '/posts', {
        token: s.token,
        body: { title: 'Long post', status: 'published', body: 'x\n'.repeat(60), summary: 'y\n'.repeat(60) },
      });
      await t.request('PATCH', `/posts/${made.body.doc.id}?draft=true`, {
        token: s.token,
        body: { title: 'Long post v2' },
      });
      await page.goto(admin(`/collections/posts/${made.body.doc.id}`));
      const publish = page.getByRole('button', { name: 'Publish changes' });
      await publish.waitFor();
      const saveDraft = page.getByRole('button', { name: 'Save draft' });
      const [p, d] = [await publish.boundingBox(), await saveDraft.boundingBox()];
      expect(Math.abs(p!.y - d!.y)).toBeLessThan(2); // one row
      expect(p!.height).toBeLessThan(44); // one line of text
      expect(p!.x + p!.width).toBeLessThanOrEqual(1366);

      await page.setViewportSize({ width: 375, height: 700 });
      await page.locator('#field-notes').scrollIntoViewIfNeeded();
      await page.locator('#field-notes').fill('typed at the bottom');
      for (const name of ['Publish changes', 'Save draft']) {
        const box = (await page.getByRole('button', { name }).boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(700);
        expect(box.x + box.width).toBeLessThanOrEqual(375);
      }
      // The bar does not hide the last field.
      const field = (await page.locator('#field-notes').boundingBox())!;
      await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
      const bar = (await page.getByRole('button', { name: 'Save draft' }).boundingBox())!;
      const last = (await page.locator('#field-notes').boundingBox())!;
      expect(last.y + last.height).toBeLessThanOrEqual(bar.y);
      expect(field.height).toBeGreaterThan(0);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
      await page.setViewportSize({ width: 1366, height: 900 });
    },
    STEP,
  );
  test(
    'a bulk upload leaves the queue once done; the queue never pushes the library far down',
    async () => {
      await page.goto(admin('/collections/media'));
      const files = await Promise.all(
        Array.from({ length: 8 }, async (_, i) => ({
          name: `photo-${i}.png`,
          mimeType: 'image/png',
          buffer: await png(40 + i, 30),
        })),
      );
      await page.locator('input[type=file]').setInputFiles(files);
      const queue = page.getByRole('list', { name: 'Uploads' });
      await queue.waitFor();
      expect((await queue.boundingBox())!.height).toBeLessThanOrEqual(900 * 0.45 + 1);
      await queue.waitFor({ state: 'detached', timeout: 10_000 });
      expect((await t.request('GET', '/media', { token: s.token })).body.totalDocs).toBe(8);
    },
    STEP,
  );

  test(
    'the Columns menu closes on Escape and on a click outside',
    async () => {
      await page.goto(admin('/collections/posts'));
      const menu = page.locator('details.column-picker');
      const open = () => menu.evaluate((d) => (d as HTMLDetailsElement).open);
      await page.getByText('Columns', { exact: true }).click();
      expect(await open()).toBe(true);
      await page.keyboard.press('Escape');
      expect(await open()).toBe(false);
      await page.getByText('Columns', { exact: true }).click();
      expect(await open()).toBe(true);
      await page.getByRole('heading', { name: 'Posts' }).click();
      expect(await open()).toBe(false);
    },
    STEP,
  );

  test(
    'three toasts leave the Schedule button visible and clickable',
    async () => {
      const made = await t.request('POST', '/posts', {
        token: s.token,
        body: { title: 'Toasty', status: 'published' },
      });
      for (const width of [1366, 375]) {
        await page.setViewportSize({ width, height: width > 400 ? 768 : 700 }); // 1366 × 768: a common laptop
        await page.goto(admin(`/collections/posts/${made.body.doc.id}`));
        await page.locator('#field-title').fill(`Toasty ${width}`);
        const schedule = page.getByRole('button', { name: 'Schedule', exact: true });
        for (let i = 0; i < 3; i++) {
          await page.locator('#field-summary').fill(`round ${i}`);
          await page.getByRole('button', { name: 'Save draft' }).click();
          await page.locator('.toast').nth(i).waitFor();
        }
        await schedule.scrollIntoViewIfNeeded();
        const target = (await schedule.boundingBox())!;
        for (const box of await page
          .locator('.toast')
          .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
          const apart =
            box.right <= target.x ||
            box.left >= target.x + target.width ||
            box.bottom <= target.y ||
            box.top >= target.y + target.height;
          expect(apart).toBe(true);
        }
      }
      await page.setViewportSize({ width: 1366, height: 900 });
    },
    STEP,
  );
  test(
    'sessions read "Chrome on Linux", not a raw user-agent string',
    async () => {
      await t.request('POST', '/users/login', {
        body: { email: ADMIN.email, password: ADMIN.password },
        headers: {
          'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0',
        },
      });
      await page.goto(admin('/account/security'));
      const table = page.locator('table', { hasText: 'Last used' });
      await table.getByText('Firefox on macOS').waitFor();
      await table
        .getByText(/Chrome on Linux/)
        .first()
        .waitFor();
      expect(await table.textContent()).not.toContain('Mozilla/5.0');
    },
    STEP,
  );

  test(
    'after "session ended" the email is filled in; only the password is left to type',
    async () => {
      await page.goto(admin('/collections/notes/create'));
      await page.locator('#field-title').fill('Typed before the session ended');
      await page.context().clearCookies();
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByText('Your session has ended').waitFor();
      expect(await page.getByLabel('Email').inputValue()).toBe(ADMIN.email);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'New note' }).waitFor();
    },
    STEP,
  );

  test(
    'the two-factor step reads as a next step, not as an error',
    async () => {
      const who = await t.user('editor', 'totp@example.com', 'password123');
      const { secret } = (await t.request('POST', '/users/totp/setup', { token: who.token })).body;
      const code = (steps = 0) =>
        referenceTOTP(fromBase32(secret), Math.floor((t.clock.now() + steps * 30_000) / 1000));
      expect(
        (await t.request('POST', '/users/totp/enable', { token: who.token, body: { code: await code() } })).status,
      ).toBe(200);
      await page.context().clearCookies();
      await page.goto(admin('/'));
      await page.getByLabel('Email').fill('totp@example.com');
      await page.getByLabel('Password').fill('password123');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByLabel('Two-factor code').waitFor();
      expect(await page.getByRole('alert').count()).toBe(0);
      await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
      await page.getByText('Enter the code from your authenticator app').waitFor();
      await page.getByLabel('Two-factor code').fill('000000');
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
      await page.getByLabel('Two-factor code').fill(await code(1));
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: /Welcome/ }).waitFor();
    },
    STEP,
  );
  test(
    'a ? panel lists the shortcuts, opened by its button or by pressing ?',
    async () => {
      await page.goto(admin('/collections/posts'));
      await page.getByRole('heading', { name: 'Posts' }).waitFor();
      await page.keyboard.press('?');
      const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain('Save (a draft where drafts exist)');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      await page.getByRole('searchbox').fill('?'); // typing a question mark in a field is just typing
      expect(await dialog.count()).toBe(0);
      await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
      await dialog.waitFor();
      await page.keyboard.press('Escape');
    },
    STEP,
  );

  test(
    'a visible light/dark/system switch, kept across reloads',
    async () => {
      const theme = () => page.evaluate(() => document.documentElement.dataset.theme);
      const bg = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg'));
      await page.goto(admin('/'));
      const select = page.getByLabel('Theme');
      expect(await select.inputValue()).toBe('system');
      expect(await theme()).toBe('light');
      const light = await bg();
      await select.selectOption('dark');
      expect(await theme()).toBe('dark');
      expect(await bg()).not.toBe(light);
      await page.reload();
      expect(await theme()).toBe('dark');
      expect(await page.getByLabel('Theme').inputValue()).toBe('dark');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.getByLabel('Theme').selectOption('system');
      expect(await theme()).toBe('dark');
      await page.emulateMedia({ colorScheme: 'light' }); // "system" follows the change
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      await page.getByLabel('Theme').selectOption('light');
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.reload();
      expect(await theme()).toBe('light');
      await page.getByLabel('Theme').selectOption('system');
      await page.emulateMedia({ colorScheme: 'light' });
    },
    STEP,
  );
});
