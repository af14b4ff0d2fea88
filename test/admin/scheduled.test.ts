// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * In Chromium: the admins' "Scheduled" view (a lazy chunk under Admin) lists the
 * pending jobs of every collection and global with the document's title linked, and cancels one; the
 * list's "Scheduled" badges come from one request for admins; versions show who saved them and when,
 * to the second (capability 4).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { localAPI } from '../../src/local.ts';

const ADMIN = { name: 'Lin', email: 'lin@example.com', password: 'correct horse 4' };
const STEP = 20_000;
const HOUR = 3600_000;
const SHOTS = path.join(import.meta.dir, '../..', 'test-artifacts', 'admin');

describe.skipIf(!hasChromium())('admin: scheduled jobs and version authors', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let pageErrors: string[] = [];
  const nav = () => page.getByRole('navigation', { name: 'Main' });
  const at = (hours: number) => new Date(t.clock.now() + hours * HOUR).toISOString();

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer({
      collections: [
        { slug: 'posts', drafts: true, admin: { useAsTitle: 'title' }, fields: [{ name: 'title', type: 'text' }] },
      ],
      globals: [{ slug: 'banner', drafts: true, fields: [{ name: 'text', type: 'text' }] }],
    });
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    const call = (method: string, url: string, body?: unknown) => t.request(method, url, { token: s.token, body });
    for (const title of ['Spring launch', 'Quiet note', 'Old news']) await call('POST', '/posts', { title });
    await call('POST', '/posts/1/schedule', { action: 'publish', at: at(3) });
    await call('POST', '/posts/3/schedule', { action: 'unpublish', at: at(1) });
    await call('POST', '/globals/banner', { text: 'Hi' });
    await call('POST', '/globals/banner/schedule', { action: 'publish', at: at(2) });
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test(
    'the Scheduled view lists every pending job soonest first, titles linked, and cancels one',
    async () => {
      await nav().getByRole('link', { name: 'Scheduled' }).click();
      await page.getByRole('heading', { name: 'Scheduled' }).waitFor();
      const rows = page.locator('tbody tr');
      await rows.first().waitFor();
      expect(await rows.count()).toBe(3);
      const names = await rows.locator('td:nth-child(2) a').allTextContents();
      expect(names).toEqual(['Old news', 'Banner', 'Spring launch']);
      expect(await rows.nth(0).textContent()).toContain('Unpublish');
      await page.screenshot({ path: path.join(SHOTS, 'scheduled-1366.png') });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.screenshot({ path: path.join(SHOTS, 'scheduled-375.png'), fullPage: true });
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      await page.setViewportSize({ width: 1366, height: 900 });

      await page.getByRole('button', { name: 'Cancel unpublish of Old news' }).click();
      await page
        .getByRole('dialog', { name: 'Cancel this scheduled action?' })
        .getByRole('button', { name: 'Cancel it' })
        .click();
      await page.getByRole('status').filter({ hasText: 'Scheduled action cancelled' }).waitFor();
      await page.getByRole('link', { name: 'Old news' }).waitFor({ state: 'detached' });
      expect((await localAPI(t.cms).scheduledJobs()).totalDocs).toBe(2);

      await page.getByRole('link', { name: 'Spring launch' }).click();
      await page.getByRole('heading', { name: 'Spring launch' }).waitFor();
      expect(page.url()).toContain('/collections/posts/1');
    },
    STEP,
  );

  test(
    "an admin's list asks for its page's Scheduled badges in one request",
    async () => {
      const scheduleReads: string[] = [];
      const listen = (r: { url(): string }) => {
        const u = r.url();
        if (u.includes('/schedule') || u.includes('/jobs/scheduled')) scheduleReads.push(u);
      };
      // The document the last step opened loads its own schedule (`/posts/1/schedule`) after its heading:
      // wait for it, so that only what the list asks for is counted.
      await page.getByRole('list', { name: 'Pending jobs' }).waitFor();
      page.on('request', listen);
      await nav().getByRole('link', { name: 'Posts' }).click();
      const row = page.getByRole('row', { name: /Spring launch/ });
      await row.locator('.badge.scheduled').waitFor();
      expect(
        await page
          .getByRole('row', { name: /Quiet note/ })
          .locator('.badge.scheduled')
          .count(),
      ).toBe(0);
      page.off('request', listen);
      expect(scheduleReads).toEqual([expect.stringContaining('/jobs/scheduled?collection=posts&parent=')]);
    },
    STEP,
  );

  test(
    'versions show who saved each one and the exact time; the system shows as System',
    async () => {
      await localAPI(t.cms).update({
        collection: 'posts',
        id: 2,
        data: { title: 'Quiet note, by a script' },
        draft: true,
      });
      await page.goto(`${t.url}/admin/collections/posts/2`);
      const panel = page.getByRole('region', { name: 'Versions' });
      await panel.getByRole('listitem').first().waitFor();
      const [newest, oldest] = [panel.getByRole('listitem').first(), panel.getByRole('listitem').last()];
      expect(await newest.locator('.version-by').textContent()).toMatch(/^by System · .*\d:\d\d:\d\d/);
      expect(await oldest.locator('.version-by').textContent()).toMatch(/^by Lin · .*\d:\d\d:\d\d/);
      await oldest.getByRole('button').first().click();
      const viewer = page.getByRole('dialog', { name: /^Version of / });
      await viewer.waitFor();
      expect(await viewer.locator('.version-author').textContent()).toBe('Lin');
      await page.screenshot({ path: path.join(SHOTS, 'version-author-1366.png') });
      await page.keyboard.press('Escape');
    },
    STEP,
  );

  test(
    'editors have no Scheduled view; their list badges still come per row',
    async () => {
      await t.request('POST', '/users', {
        token: s.token,
        body: { email: 'ed@example.com', password: 'correct horse 5', role: 'editor', name: 'Ed' },
      });
      const other = await openAdminLoggedIn(t, { name: 'Ed', email: 'ed@example.com', password: 'correct horse 5' });
      try {
        const p = other.page;
        expect(await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Scheduled' }).count()).toBe(
          0,
        );
        await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Posts' }).click();
        await p
          .getByRole('row', { name: /Spring launch/ })
          .locator('.badge.scheduled')
          .waitFor();
      } finally {
        await other.browser.close();
      }
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
