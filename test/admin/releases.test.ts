// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * In Chromium: the Releases view (docs/releases.md, "In the admin"). A release is created, two posts and a
 * global are added from their "More actions" menus (the global by keyboard), publishing is refused with the
 * problem shown against its item and nothing live, an edited post is marked "Changed since added" with its
 * diff and pinned anew, the release publishes and everything is live over REST; then revert, schedule,
 * unschedule and preview, at 375 px without sideways scrolling.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';

const ADMIN = { name: 'Rae', email: 'rae@example.com', password: 'correct horse 7' };
const STEP = 30_000;
const SHOTS = path.join(import.meta.dir, '../..', 'test-artifacts', 'admin');

describe.skipIf(!hasChromium())('admin: releases', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let pageErrors: string[] = [];
  // The site the preview opens: any page answers.
  const site = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('<title>Site</title>') });
  const SITE = `http://127.0.0.1:${site.port}`;
  const nav = () => page.getByRole('navigation', { name: 'Main' });
  const toast = (text: string) => page.getByRole('status').filter({ hasText: text }).first().waitFor();
  const item = (title: string) =>
    page.getByRole('list', { name: 'Items' }).getByRole('listitem').filter({ hasText: title }).first();
  const live = async (url: string) => (await t.request('GET', url, { token: s.token })).body;
  const fitsPhone = async (shot: string) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: path.join(SHOTS, `${shot}-375.png`), fullPage: true });
    const fits = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
    await page.setViewportSize({ width: 1366, height: 900 });
    return fits;
  };

  const addFromMenu = async (open: () => Promise<void>, heading: string) => {
    await open();
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('button', { name: 'Add to release…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add to a release' });
    await dialog.getByLabel('Release').waitFor();
    expect(await dialog.getByLabel('Release').locator('option:checked').textContent()).toBe('Spring launch');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    // The dialog closes once the item is added (an earlier toast may still be on screen).
    await dialog.waitFor({ state: 'detached' });
    await toast('Added to “Spring launch”');
  };

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer({
      releases: true,
      collections: [
        {
          slug: 'posts',
          drafts: true,
          admin: { useAsTitle: 'title' },
          livePreview: { url: ({ doc }) => `${SITE}/posts/${doc.id}` },
          fields: [
            { name: 'title', type: 'text', required: true },
            { name: 'summary', type: 'text', required: true },
          ],
        },
      ],
      globals: [{ slug: 'banner', drafts: true, fields: [{ name: 'text', type: 'text' }] }],
    });
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    s = await t.login(ADMIN.email, ADMIN.password);
    const draft = (url: string, body: unknown) => t.request('POST', url, { token: s.token, body });
    // Drafts are saved without the required check: Beta lacks its summary until an editor writes one.
    await draft('/posts?draft=true', { title: 'Alpha', summary: 'First' });
    await draft('/posts?draft=true', { title: 'Beta' });
    await draft('/globals/banner?draft=true', { text: 'Launch week' });
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
    site.stop(true);
  });

  test(
    'a release is created and two posts and a global are added from their menus',
    async () => {
      expect((await live('/_admin/config')).features.releases).toBe(true);
      await nav().getByRole('link', { name: 'Releases' }).click();
      await page.getByRole('heading', { name: 'Releases', level: 1 }).waitFor();
      await page.getByLabel('New release').fill('Spring launch');
      await page.getByRole('button', { name: 'Create release' }).click();
      await page.getByRole('heading', { name: /^Spring launch/, level: 1 }).waitFor();
      expect(await page.locator('h1 .badge').textContent()).toBe('Open');

      for (const title of ['Alpha', 'Beta'])
        await addFromMenu(async () => {
          await nav().getByRole('link', { name: 'Posts' }).click();
          await page.getByRole('link', { name: title, exact: true }).click();
        }, title);

      // The global's menu, by keyboard only.
      await nav().getByRole('link', { name: 'Banner' }).click();
      await page.getByRole('heading', { name: 'Banner', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'More actions' }).focus();
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Add to release…');
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Add to a release' });
      await dialog.getByLabel('Release').waitFor();
      await dialog.getByLabel('Action').focus();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Add');
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      await toast('Added to “Spring launch”');

      const releases = (await live('/releases')).docs;
      expect(releases.map((r: any) => r.items.map((i: any) => `${i.collection ?? i.global}:${i.action}`))).toEqual([
        ['posts:publish', 'posts:publish', 'banner:publish'],
      ]);
    },
    STEP,
  );

  test(
    'publishing is refused with the problem shown against its item, and nothing goes live',
    async () => {
      await nav().getByRole('link', { name: 'Releases' }).click();
      const row = page.getByRole('row', { name: /Spring launch/ });
      expect(await row.textContent()).toContain('3 items');
      await row.getByRole('link', { name: 'Spring launch' }).click();
      await item('Beta').waitFor();
      await page.getByRole('button', { name: 'Publish now' }).click();
      await page
        .getByRole('dialog', { name: 'Publish this release?' })
        .getByRole('button', { name: 'Publish' })
        .click();
      await page.getByRole('alert').filter({ hasText: 'One item needs attention; nothing was published.' }).waitFor();
      expect(await item('Beta').getAttribute('class')).toBe('has-error');
      expect(await item('Beta').locator('.field-error').textContent()).toMatch(/summary/i);
      expect(await item('Alpha').locator('.field-error').count()).toBe(0);
      expect((await live('/posts?where[status][equals]=published')).totalDocs).toBe(0);
      await page.screenshot({ path: path.join(SHOTS, 'release-refused-1366.png') });
      expect(await fitsPhone('release-refused')).toBe(true);
    },
    STEP,
  );

  test(
    'an edited post is marked changed since added, shows its diff, is pinned anew, and the release publishes',
    async () => {
      await item('Beta').getByRole('link', { name: 'Beta' }).click();
      await page.getByRole('heading', { name: 'Beta', level: 1 }).waitFor();
      await page.getByLabel('Summary').fill('Second');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await toast('Draft saved');
      await page.goBack();
      await item('Beta').getByText('Changed since added').waitFor();
      expect(await item('Alpha').getByText('Changed since added').count()).toBe(0);

      await page.getByRole('button', { name: 'Show changes of Beta' }).click();
      const viewer = page.getByRole('dialog', { name: /^Version of / });
      await viewer.locator('tr.changed[data-field="summary"]').waitFor();
      expect(await viewer.locator('tr.changed').count()).toBe(1);
      await page.keyboard.press('Escape');
      await viewer.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Use the current draft of Beta' }).click();
      await toast('The current draft is pinned');
      await item('Beta').getByText('Changed since added').waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Publish now' }).click();
      await page
        .getByRole('dialog', { name: 'Publish this release?' })
        .getByRole('button', { name: 'Publish' })
        .click();
      await toast('Release published');
      expect(await page.locator('h1 .badge').textContent()).toBe('Published');
      expect(await page.getByRole('alert').count()).toBe(0);

      const posts = await live('/posts?where[status][equals]=published&sort=id');
      expect(posts.docs.map((d: any) => `${d.title}:${d.summary}`)).toEqual(['Alpha:First', 'Beta:Second']);
      const banner = await live('/globals/banner');
      expect([banner.text, banner.status]).toEqual(['Launch week', 'published']);
      expect(await fitsPhone('release-published')).toBe(true);
    },
    STEP,
  );

  test(
    'revert opens a new release; it schedules and unschedules; preview opens the site with the release',
    async () => {
      await page.getByRole('button', { name: 'Revert' }).click();
      await page.getByRole('dialog', { name: 'Revert this release?' }).getByRole('button', { name: 'Revert' }).click();
      await page.getByRole('heading', { name: /^Revert: Spring launch/, level: 1 }).waitFor();
      expect(await page.getByRole('list', { name: 'Items' }).getByRole('listitem').count()).toBe(3);

      // The server's clock starts on 1 January 2026: June is in the future.
      await page.getByLabel(/Date and time/).fill('2026-06-01T10:00');
      await page.getByRole('button', { name: 'Schedule release' }).click();
      await toast('Release scheduled');
      expect(await page.locator('h1 .badge').textContent()).toBe('Scheduled');
      await page.getByText(/^Goes live /).waitFor();
      const revert = (await live('/releases?where[status][equals]=scheduled')).docs[0];
      expect(Date.parse(revert.publishAt)).toBe(new Date('2026-06-01T10:00').getTime());
      await page.getByRole('button', { name: 'Unschedule' }).click();
      await toast('Release unscheduled');
      expect(await page.locator('h1 .badge').textContent()).toBe('Open');

      // The preview route may be missing on a server without release previews: the admin then says why.
      const probe = await t.request('POST', `/releases/${revert.id}/preview`, { token: s.token });
      const opened = page.context().waitForEvent('page');
      await page.getByRole('button', { name: 'Preview' }).click();
      const popup = await opened;
      if (probe.status === 404) {
        // The window opened at the click closes again, and the answer is shown.
        await toast(probe.body.errors[0].message);
        if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 8_000 });
      } else {
        await popup.waitForURL(/release=/);
        const url = new URL(popup.url());
        expect(url.origin + url.pathname).toBe(`${SITE}/posts/1`);
        expect(url.searchParams.get('release')).toBe(String(revert.id));
        expect(url.searchParams.get('preview')).toBeTruthy();
        await popup.close();
      }

      await nav().getByRole('link', { name: 'Releases' }).click();
      await page.getByRole('row', { name: /Revert: Spring launch/ }).waitFor();
      expect(await fitsPhone('releases-list')).toBe(true);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );
});
