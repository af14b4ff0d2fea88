// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The admin on the realtime stream and full-text search, in Chromium: a list shows a document written
 * through REST without a reload; an open document without unsaved edits takes another editor's change at
 * once, and with unsaved edits says who changed it and loads the change only when asked; the list's search
 * box finds words in any indexed field; the command palette (Ctrl+K) is a keyboard-driven dialog that
 * opens the chosen document. docs/admin.md, "Live updates" and "Search".
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';

const ADMIN = { name: 'Ada', email: 'ada@example.com', password: 'correct horse 7' };
const BEA = { name: 'Bea Other', email: 'bea@example.com', password: 'correct horse 8' };
const STEP = 20_000;

describe.skipIf(!hasChromium())('admin realtime and search', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let bea: Session;
  let pageErrors: string[] = [];
  let postId: number;
  const admin = (p = '') => `${t.url}/admin${p}`;

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer({
      collections: [
        {
          slug: 'posts',
          drafts: true,
          admin: { useAsTitle: 'title' },
          search: { fields: ['title', 'body'] },
          fields: [
            { name: 'title', type: 'text', required: true },
            { name: 'body', type: 'textarea' },
          ],
        },
        {
          slug: 'notes',
          admin: { useAsTitle: 'title' },
          search: { fields: ['title'] },
          fields: [{ name: 'title', type: 'text' }],
        },
      ],
    });
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    await t.request('POST', '/users', { token: s.token, body: { ...BEA, role: 'editor' } });
    bea = await t.login(BEA.email, BEA.password);
    const post = await t.request('POST', '/posts', {
      token: s.token,
      body: { title: 'Harbour lights', body: 'Boats at dusk in Marseille', status: 'published' },
    });
    postId = post.body.doc.id;
    await t.request('POST', '/notes', { token: s.token, body: { title: 'First note' } });
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test(
    'a list shows a document created through REST, and its later rename, without a reload',
    async () => {
      await page.goto(admin('/collections/notes'));
      await page.getByRole('link', { name: 'First note' }).waitFor();
      await page.evaluate(() => ((window as any).__sameDocument = true));
      const made = await t.request('POST', '/notes', { token: bea.token, body: { title: 'Written elsewhere' } });
      await page.getByRole('link', { name: 'Written elsewhere' }).waitFor();
      await t.request('PATCH', `/notes/${made.body.doc.id}`, {
        token: bea.token,
        body: { title: 'Renamed elsewhere' },
      });
      await page.getByRole('link', { name: 'Renamed elsewhere' }).waitFor();
      expect(await page.evaluate(() => (window as any).__sameDocument)).toBe(true);
    },
    STEP,
  );

  test(
    "an open document without unsaved edits shows another editor's save at once",
    async () => {
      await page.goto(admin(`/collections/posts/${postId}`));
      await page.getByRole('heading', { name: 'Harbour lights' }).waitFor();
      await t.request('PATCH', `/posts/${postId}?draft=true`, {
        token: bea.token,
        body: { body: 'Boats at dawn in Marseille' },
      });
      await page.waitForFunction(
        () =>
          (document.querySelector('textarea') as HTMLTextAreaElement | null)?.value === 'Boats at dawn in Marseille',
      );
      expect(await page.getByRole('alert').filter({ hasText: 'Changed by' }).count()).toBe(0);
    },
    STEP,
  );

  test(
    'with unsaved edits it says who changed the document and loads the change only when asked',
    async () => {
      await page.getByLabel('Title').fill('My unsaved title');
      await t.request('PATCH', `/posts/${postId}?draft=true`, { token: bea.token, body: { title: "Bea's title" } });
      const notice = page.getByRole('alert').filter({ hasText: 'Changed by Bea Other' });
      await notice.waitFor();
      // What the editor typed stays until they choose.
      expect(await page.getByLabel('Title').inputValue()).toBe('My unsaved title');
      await notice.getByRole('button', { name: 'Load their change' }).click();
      expect(await page.getByLabel('Title').inputValue()).toBe("Bea's title");
      await notice.waitFor({ state: 'detached' });

      // The editor's own save comes back on the stream too, and is not mistaken for someone else's.
      await page.getByLabel('Title').fill('Harbour lights');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
      await page.waitForTimeout(300);
      expect(await page.getByRole('alert').filter({ hasText: 'Changed' }).count()).toBe(0);
      expect(await page.getByLabel('Title').inputValue()).toBe('Harbour lights');
    },
    STEP,
  );

  test(
    'the list search box finds a word of any indexed field, diacritics ignored',
    async () => {
      await page.goto(admin('/collections/posts'));
      await page.getByRole('link', { name: 'Harbour lights' }).waitFor();
      await page.getByRole('searchbox', { name: 'Search posts' }).fill('marséi');
      await page.waitForURL(/q=mars/);
      await page.getByRole('link', { name: 'Harbour lights' }).waitFor();
      await page.getByRole('searchbox', { name: 'Search posts' }).fill('nowhere');
      await page.getByText('No posts match').waitFor();
    },
    STEP,
  );

  test(
    'Ctrl+K opens a dialog that searches every collection; arrows and Enter open a document',
    async () => {
      await page.goto(admin('/'));
      await page.getByRole('heading', { name: `Welcome, ${ADMIN.name}` }).waitFor();
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Search everything' });
      await dialog.waitFor();
      const box = dialog.getByRole('combobox', { name: 'Search every collection' });
      expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type('elsewh');
      await dialog.getByRole('option').first().waitFor();
      expect(await dialog.getByRole('option').count()).toBe(1);
      // Focus stays in the dialog.
      for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
      expect(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog')))).toBe(true);
      await box.focus();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      await page.keyboard.press('Control+k');
      // The first opening proved the box takes the focus; here the typing waits until it has it, since on a
      // busy machine keys typed before the dialog is on screen would go elsewhere.
      await dialog.waitFor();
      await page.waitForFunction(() => document.activeElement?.getAttribute('role') === 'combobox');
      await page.keyboard.type('harb');
      await dialog.getByRole('option', { name: /Harbour lights/ }).waitFor();
      await page.keyboard.type(' OR n'); // no match: every word must match
      await dialog.getByText('No matches.').waitFor();
      for (let i = 0; i < 5; i++) await page.keyboard.press('Backspace');
      await dialog.getByRole('option', { name: /Harbour lights/ }).waitFor();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      expect(await dialog.getByRole('option', { selected: true }).textContent()).toContain('Harbour lights');
      await page.keyboard.press('Enter');
      await page.waitForURL(`**/collections/posts/${postId}`);
      await page.getByRole('heading', { name: 'Harbour lights' }).waitFor();
      expect(await dialog.count()).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
