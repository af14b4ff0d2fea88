/**
 * A browser's EventSource opened with the session cookie stops after logout (docs/realtime.md, "When the
 * caller's credentials change"): the stream ends, EventSource reconnects by itself without the cookie the
 * logout cleared, gets a 401 and stays closed, instead of going on as an anonymous stream. Real Chromium.
 * Runs on the engine of CMS_TEST_ENGINE.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { hasChromium, launchBrowser, type Browser } from '../browser.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { hubOf } from '../../src/realtime/hub.ts';

const run = hasChromium();
let t: TestServer;
let browser: Browser;

beforeAll(async () => {
  if (!run) return;
  t = await startTestServer({
    collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }],
  });
  await t.user('editor', 'ed@example.com', 'a long password 1');
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.stop();
});

test.skipIf(!run)(
  'a cookie EventSource ends at logout and does not come back as anonymous',
  async () => {
    const { page } = browser;
    await page.goto(`${t.api}/health`);
    const csrf = await page.evaluate(async () => {
      const res = await fetch('/api/cms/users/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ed@example.com', password: 'a long password 1' }),
      });
      const source = new EventSource('/api/cms/realtime?topics=posts', { withCredentials: true });
      const w = window as unknown as { seen: string[]; source: EventSource };
      w.seen = [];
      w.source = source;
      source.onopen = () => w.seen.push('open');
      source.addEventListener('end', () => w.seen.push('end'));
      source.onerror = () => w.seen.push(`error:${source.readyState}`);
      return ((await res.json()) as { csrfToken: string }).csrfToken;
    });
    const seen = () => page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    const readyState = () => page.evaluate(() => (window as unknown as { source: EventSource }).source.readyState);
    await page.waitForFunction(() => (window as unknown as { seen: string[] }).seen.includes('open'));
    expect(hubOf(t.cms).size).toBe(1);

    const status = await page.evaluate(
      async (token) =>
        (await fetch('/api/cms/users/logout', { method: 'POST', headers: { 'x-csrf-token': token } })).status,
      csrf,
    );
    expect(status).toBe(200);
    // The end event, then EventSource's own reconnect after its retry delay, refused: CLOSED for good.
    await page.waitForFunction(() => (window as unknown as { source: EventSource }).source.readyState === 2, null, {
      timeout: 10_000,
    });
    expect(await seen()).toContain('end');
    await Bun.sleep(3000);
    expect(await readyState()).toBe(2);
    expect(hubOf(t.cms).size).toBe(0);
  },
  60_000,
);
