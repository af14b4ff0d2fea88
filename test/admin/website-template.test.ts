// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The website template in Chromium, as a newcomer meets it: the site `cms init --template website`
 * writes, served by `cms` beside the admin, shows the sample pages, posts, header and footer (in English
 * and German); the admin's live preview frames that site on the same host, and what the editor types
 * reaches it through Payload's live-preview protocol, merged with the editor's cookie.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium } from '../browser.ts';
import { logInThroughForm, openBrowserPage, type AdminPage } from '../support/admin-page.ts';
import {
  initWebsite,
  serveWebsite,
  TEMPLATE_ADMIN,
  type ServedSite,
  type WebsiteProject,
} from '../support/website-template.ts';

const STEP = 60_000;

describe.skipIf(!hasChromium())('the website template in the browser', () => {
  let project: WebsiteProject;
  let server: ServedSite;
  let opened: AdminPage;
  let page: Page;

  beforeAll(async () => {
    await adminBuilt();
    project = await initWebsite();
    server = await serveWebsite(project.site, project.env);
    opened = await openBrowserPage({ viewport: { width: 1366, height: 900 } });
    page = opened.page;
  }, 90_000);

  afterAll(async () => {
    await opened?.browser.close();
    await server?.stop();
    await project?.remove();
  });

  test(
    'the site shows the home page, a post with its author, header and footer, and German',
    async () => {
      await page.goto(`${server.url}/`);
      await page.getByRole('heading', { level: 1, name: 'A whole site, ready to edit' }).waitFor();
      const header = page.locator('#header');
      await header.getByRole('link', { name: 'Contact' }).waitFor();
      expect(await header.getByRole('link').allTextContents()).toEqual(['Home', 'Posts', 'Contact']);
      expect(await page.locator('#footer').getByRole('link').allTextContents()).toEqual(['Posts', 'Contact', 'Admin']);
      // The archive of the latest posts and the hand-picked one.
      await page.locator('.archive .card').first().waitFor();
      expect(await page.locator('.archive').first().locator('.card h3').count()).toBe(3);
      await page.getByRole('link', { name: 'Read the posts' }).click();
      await page.waitForURL(/\/posts$/);
      await page.getByRole('link', { name: 'Welcome to your new site' }).click();
      await page.getByRole('heading', { level: 1, name: 'Welcome to your new site' }).waitFor();
      await page.getByText(`${TEMPLATE_ADMIN.name} ·`).waitFor();
      await page.getByRole('link', { name: 'DE', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Willkommen auf der neuen Seite' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');

      // A signed preview link (the admin's "Preview") shows the saved draft to a reader without a session.
      const api = `${server.url}/api/cms`;
      const login = await fetch(`${api}/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: TEMPLATE_ADMIN.email, password: TEMPLATE_ADMIN.password }),
      });
      const auth = {
        authorization: `Bearer ${((await login.json()) as { token: string }).token}`,
        'content-type': 'application/json',
      };
      const posts = await (await fetch(`${api}/posts?where[slug][equals]=welcome-to-your-new-site&depth=0`)).json();
      const id = posts.docs[0].id;
      await fetch(`${api}/posts/${id}?draft=true`, {
        method: 'PATCH',
        headers: auth,
        body: JSON.stringify({ title: 'Not published yet' }),
      });
      const preview = await fetch(`${api}/posts/${id}/preview`, { method: 'POST', headers: auth, body: '{}' });
      const { url } = (await preview.json()) as { url: string };
      await page.goto(new URL(url, server.url).href);
      await page.getByRole('heading', { level: 1, name: 'Not published yet' }).waitFor();
      await page.goto(`${server.url}/posts/welcome-to-your-new-site`);
      await page.getByRole('heading', { level: 1, name: 'Welcome to your new site' }).waitFor();
      expect(opened.pageErrors).toEqual([]);
    },
    STEP,
  );

  test(
    "live preview in the admin frames the site on the same host and follows the editor's typing",
    async () => {
      await page.goto(`${server.url}/admin`);
      await logInThroughForm(page, TEMPLATE_ADMIN);
      await page.getByRole('heading', { name: `Welcome, ${TEMPLATE_ADMIN.name}` }).waitFor();
      const api = `${server.url}/api/cms`;
      const contact = await (await fetch(`${api}/pages?where[slug][equals]=contact&depth=0`)).json();
      await page.goto(`${server.url}/admin/collections/pages/${contact.docs[0].id}`);
      const toggle = page.getByRole('button', { name: 'Live preview' });
      if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
      const frame = page.frameLocator('iframe[title="Live preview of the site"]');
      await frame.getByRole('heading', { level: 1, name: 'Contact' }).waitFor();
      const src = await page.locator('iframe[title="Live preview of the site"]').getAttribute('src');
      expect(new URL(src!, server.url).origin).toBe(server.url);

      await page
        .getByRole('textbox', { name: /^Title/ })
        .first()
        .fill('Talk to us');
      // The site merged the typed title over the draft (method-override read with the editor's cookie).
      const site = page.frames().find((f) => f.url().startsWith(`${server.url}/contact`))!;
      await site.waitForFunction(() => document.title === 'Talk to us');
      expect(Number(await site.evaluate(() => document.body.dataset.livePreview))).toBeGreaterThan(0);
      await site.getByText('Preview: drafts shown').waitFor();

      // The header global previews on the home page: its navigation follows the typing.
      await page.goto(`${server.url}/admin/globals/header`);
      const nav = page.frameLocator('iframe[title="Live preview of the site"]').locator('#header');
      await nav.getByRole('link', { name: 'Contact' }).waitFor();
      await page
        .getByRole('textbox', { name: /^Label/ })
        .last()
        .fill('Write to us');
      await nav.getByRole('link', { name: 'Write to us' }).waitFor();
      expect(opened.pageErrors).toEqual([]);
    },
    STEP,
  );

  test(
    'every collection and global of the template opens in the admin without an error',
    async () => {
      const api = `${server.url}/api/cms`;
      const login = await fetch(`${api}/users/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: TEMPLATE_ADMIN.email, password: TEMPLATE_ADMIN.password }),
      });
      const { token } = (await login.json()) as { token: string };
      for (const slug of ['pages', 'posts', 'projects', 'categories', 'comments', 'media', 'users']) {
        const list = await fetch(`${api}/${slug}?depth=0&limit=1`, { headers: { authorization: `Bearer ${token}` } });
        const id = ((await list.json()) as { docs: { id: number }[] }).docs[0]!.id;
        await page.goto(`${server.url}/admin/collections/${slug}/${id}`);
        await page.locator('form').first().waitFor();
        await page.getByRole('heading', { level: 1 }).first().waitFor();
      }
      for (const slug of ['header', 'footer', 'settings']) {
        await page.goto(`${server.url}/admin/globals/${slug}`);
        await page.locator('form').first().waitFor();
      }
      expect(opened.pageErrors).toEqual([]);
    },
    STEP,
  );
});
