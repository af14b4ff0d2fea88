// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * Live preview in Chromium: a site on another loopback port, written with the
 * real `@payloadcms/live-preview` package (test/fixtures/live-preview-site.ts, bundled here with
 * Bun.build), sits in the edit view's iframe and shows the typed title without a save; a save reaches
 * it as a `payload-document-event`; phone width, pop-out and the "Preview" tab (signed URL) work; a
 * global with `livePreview.url` gets the same pane.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';

const ADMIN = { name: 'Ada', email: 'ada@example.com', password: 'correct horse 3' };
const STEP = 20_000;
const SHOTS = path.join(import.meta.dir, '../..', 'test-artifacts', 'admin');

/** The frontend: one HTML page for every path, and the bundled script. */
async function startSite(cms: () => { serverURL: string; apiRoute: string }) {
  const built = await Bun.build({
    entrypoints: [path.join(import.meta.dir, '../fixtures/live-preview-site.ts')],
    target: 'browser',
    format: 'esm',
  });
  if (!built.success) throw new Error(built.logs.join('\n'));
  const script = await built.outputs[0]!.text();
  return Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === '/site.js') return new Response(script, { headers: { 'content-type': 'text/javascript' } });
      const site = JSON.stringify({ ...cms(), path: url.pathname });
      const html = `<!doctype html><meta charset="utf-8"><title>Site</title><body><h1>…</h1><script>window.__SITE__=${site}</script><script type="module" src="/site.js"></script>`;
      return new Response(html, { headers: { 'content-type': 'text/html' } });
    },
  });
}

describe.skipIf(!hasChromium())('admin live preview', () => {
  let site: ReturnType<typeof Bun.serve>;
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let postId: number;
  let pageErrors: string[] = [];
  const admin = (p = '') => `${t.url}/admin${p}`;
  const frame = () => page.frameLocator('iframe[title="Live preview of the site"]');

  beforeAll(async () => {
    await adminBuilt();
    site = await startSite(() => ({ serverURL: t.url, apiRoute: '/api/cms' }));
    const siteURL = `http://127.0.0.1:${site.port}`;
    // A port that answered once and is closed now: a site that is not running.
    const gone = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('') });
    const deadURL = `http://127.0.0.1:${gone.port}`;
    gone.stop(true);
    t = await startTestServer({
      // The site reads with the preview token (CORS) and merges with the editor's cookie (trusted origin).
      auth: { trustedOrigins: [siteURL] },
      collections: [
        {
          slug: 'posts',
          drafts: true,
          admin: { useAsTitle: 'title' },
          livePreview: { url: ({ doc }) => `${siteURL}/posts/${doc.id}` },
          fields: [
            { name: 'title', type: 'text', required: true },
            { name: 'body', type: 'textarea' },
          ],
        },
        { slug: 'notes', admin: { useAsTitle: 'title' }, fields: [{ name: 'title', type: 'text' }] },
        {
          slug: 'drafts',
          admin: { useAsTitle: 'title' },
          livePreview: { url: ({ doc }) => `${deadURL}/drafts/${doc.id}` },
          fields: [{ name: 'title', type: 'text' }],
        },
      ],
      globals: [
        {
          slug: 'banner',
          livePreview: { url: () => `${siteURL}/globals/banner` },
          fields: [{ name: 'title', type: 'text' }],
        },
      ],
    });
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    const post = await t.request('POST', '/posts', {
      token: s.token,
      body: { title: 'First words', body: 'One', status: 'published' },
    });
    postId = post.body.doc.id;
    await t.request('POST', '/globals/banner', { token: s.token, body: { title: 'Welcome' } });
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    site?.stop(true);
  });

  test(
    'the site in the frame shows the typed title without a save, and hears about the save',
    async () => {
      await page.goto(admin(`/collections/posts/${postId}`));
      await page.getByRole('heading', { name: 'First words' }).waitFor();
      const toggle = page.getByRole('button', { name: 'Live preview' });
      expect(await toggle.getAttribute('aria-pressed')).toBe('false');
      await toggle.click();
      await frame().getByRole('heading', { name: 'First words' }).waitFor();

      await page.getByLabel('Title').fill('Typed, not saved');
      await frame().getByRole('heading', { name: 'Typed, not saved' }).waitFor();
      const stored = await t.request('GET', `/posts/${postId}?draft=true`, { token: s.token });
      expect(stored.body.title).toBe('First words');

      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
      await frame().locator('body[data-saves="1"]').waitFor();

      // Phone width: the frame is 375 px and the page does not scroll sideways.
      await page.getByRole('button', { name: 'Phone' }).click();
      const box = await page.locator('iframe[title="Live preview of the site"]').boundingBox();
      expect(Math.round(box!.width)).toBe(375);
      await page.screenshot({ path: path.join(SHOTS, 'live-preview-1366.png') });
      await page.setViewportSize({ width: 375, height: 800 });
      await frame().getByRole('heading', { name: 'Typed, not saved' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - innerWidth)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(SHOTS, 'live-preview-375.png'), fullPage: true });
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.getByRole('button', { name: 'Desktop' }).click();
    },
    STEP,
  );

  test(
    'pop out follows the typing in its own window; "Preview" opens the signed URL in a new tab',
    async () => {
      await page.goto(admin(`/collections/posts/${postId}`));
      await frame().getByRole('heading', { name: 'Typed, not saved' }).waitFor();
      const [popup] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByRole('button', { name: 'Pop out' }).click(),
      ]);
      await popup.getByRole('heading', { name: 'Typed, not saved' }).waitFor();
      await page.getByLabel('Title').fill('Seen in the window');
      await popup.getByRole('heading', { name: 'Seen in the window' }).waitFor();
      await page.getByRole('button', { name: 'Bring back' }).click();
      await frame().getByRole('heading', { name: 'Seen in the window' }).waitFor();

      const [tab] = await Promise.all([
        page.context().waitForEvent('page'),
        page.getByRole('button', { name: 'Preview', exact: true }).click(),
      ]);
      await tab.waitForLoadState();
      expect(tab.url()).toContain(`/posts/${postId}?preview=`);
      // The signed URL shows the saved draft (no login needed), not what is only typed.
      await tab.getByRole('heading', { name: 'Typed, not saved' }).waitFor();
      await tab.close();
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
    },
    STEP,
  );

  test(
    'a save made elsewhere reaches the site through the realtime stream, with no click in the admin',
    async () => {
      await page.goto(admin(`/collections/posts/${postId}`));
      await frame().getByRole('heading', { name: 'Seen in the window' }).waitFor();
      await t.request('PATCH', `/posts/${postId}?draft=true`, { token: s.token, body: { title: 'Saved by a script' } });
      // The open form takes the change (no unsaved edits), the frame shows it, and the site hears of the save.
      await frame().getByRole('heading', { name: 'Saved by a script' }).waitFor();
      await frame().locator('body[data-saves="1"]').waitFor();
    },
    STEP,
  );

  test(
    'a preview URL that does not answer is named in the pane, and asked again on request',
    async () => {
      const doc = await t.request('POST', '/drafts', { token: s.token, body: { title: 'Nowhere yet' } });
      await page.goto(admin(`/collections/drafts/${doc.body.doc.id}`));
      await page.getByRole('heading', { name: 'Nowhere yet' }).waitFor();
      // The pane stays open from the tests before.
      expect(await page.getByRole('button', { name: 'Live preview' }).getAttribute('aria-pressed')).toBe('true');
      const warning = page.getByRole('alert').filter({ hasText: 'does not answer' });
      await warning.waitFor();
      expect(await warning.textContent()).toContain('http://127.0.0.1:');
      await page.getByRole('button', { name: 'Try again' }).click();
      await warning.waitFor();
      // A site that answers shows no such warning.
      await page.goto(admin(`/collections/posts/${postId}`));
      await frame().getByRole('heading', { name: 'Saved by a script' }).waitFor();
      expect(await page.getByRole('alert').filter({ hasText: 'does not answer' }).count()).toBe(0);
    },
    STEP,
  );

  test(
    'a global with livePreview.url gets the pane; a collection without it does not',
    async () => {
      await page.goto(admin('/globals/banner'));
      await page.getByRole('heading', { name: 'Banner' }).waitFor();
      await frame().getByRole('heading', { name: 'Welcome' }).waitFor();
      await page.getByLabel('Title').fill('Sale today');
      await frame().getByRole('heading', { name: 'Sale today' }).waitFor();

      const note = await t.request('POST', '/notes', { token: s.token, body: { title: 'Plain' } });
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /^Saved$/ })
        .waitFor();
      await page.goto(admin(`/collections/notes/${note.body.doc.id}`));
      await page.getByRole('heading', { name: 'Plain' }).waitFor();
      expect(await page.getByRole('button', { name: 'Live preview' }).count()).toBe(0);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
