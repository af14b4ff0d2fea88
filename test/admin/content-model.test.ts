// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The admin's editors for the content model, in Chromium against a real server: the blocks editor by
 * keyboard alone (add, insert between, reorder, duplicate, remove, fold, errors on rows), dragging a row,
 * tabs with error counts, rows, collapsibles, radio, code, point, sidebar fields, and a phone-sized screen.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  collections: [
    {
      slug: 'pages',
      admin: { useAsTitle: 'title' },
      fields: [
        {
          type: 'tabs',
          tabs: [
            {
              label: 'Content',
              fields: [
                { name: 'title', type: 'text', required: true },
                {
                  name: 'layout',
                  type: 'blocks',
                  blocks: [
                    {
                      slug: 'hero',
                      labels: { singular: 'Hero', plural: 'Heroes' },
                      admin: { description: 'A big heading' },
                      fields: [
                        { name: 'heading', type: 'text', required: true },
                        { name: 'sub', type: 'textarea' },
                      ],
                    },
                    {
                      slug: 'cta',
                      labels: { singular: 'Call to action', plural: 'Calls to action' },
                      fields: [
                        { name: 'label', type: 'text' },
                        { name: 'url', type: 'text' },
                      ],
                    },
                  ],
                },
              ],
            },
            { label: 'SEO', fields: [{ name: 'summary', type: 'text', required: true }] },
            { label: 'Meta', name: 'meta', fields: [{ name: 'description', type: 'text' }] },
          ],
        },
        {
          type: 'row',
          fields: [
            {
              name: 'kind',
              type: 'radio',
              options: [
                { label: 'Article', value: 'article' },
                { label: 'Landing', value: 'landing' },
              ],
            },
            { name: 'place', type: 'point' },
          ],
        },
        {
          type: 'collapsible',
          label: 'Advanced',
          fields: [{ name: 'snippet', type: 'code', admin: { language: 'ts' } }],
        },
        {
          name: 'slug',
          type: 'text',
          admin: { position: 'sidebar', placeholder: 'page-slug', description: 'The last part of the URL' },
        },
      ],
    },
  ],
} as UserConfig;

const ADMIN = { name: 'Grace Hopper', email: 'grace@example.com', password: 'correct horse 1' };
const STEP = 20_000;

describe.skipIf(!hasChromium())('admin: content model editors', () => {
  let t: TestServer;
  let s: Session;
  let browser: Browser;
  let page: Page;
  let pageErrors: string[] = [];
  let pageId: number;
  const admin = (p = '') => `${t.url}/admin${p}`;
  const press = async (name: string | RegExp, key = 'Enter') => {
    await page.getByRole('button', { name, exact: typeof name === 'string' }).focus();
    await page.keyboard.press(key);
  };
  const rowTitles = () => page.locator('.field-blocks .row-title').allTextContents();

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer(config);
    expect((await t.request('POST', '/users/first-register', { body: { ...ADMIN } })).status).toBe(200);
    s = await t.login(ADMIN.email, ADMIN.password);
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test(
    'blocks by keyboard: add from the picker, reorder, duplicate, insert between, remove, fold',
    async () => {
      await page.goto(admin('/collections/pages/create'));
      await page.locator('#field-title').focus();
      await page.keyboard.type('Home');

      await press('Add a block');
      const picker = page.getByRole('dialog', { name: 'Add a block' });
      await picker.waitFor();
      expect(await picker.textContent()).toContain('A big heading');
      await press(/^Hero/);
      // The new row's first input has the focus.
      await page.keyboard.type('Welcome');
      expect(await page.locator('#field-layout-0-heading').inputValue()).toBe('Welcome');

      await press('Add another block');
      await press(/^Call to action/);
      await page.keyboard.type('Sign up');
      expect(await rowTitles()).toEqual(['Welcome', 'Sign up']);

      // Alt+↑ on a row's heading moves it and keeps the focus on it.
      await page.locator('.field-blocks [data-row] .row-toggle').nth(1).focus();
      await page.keyboard.press('Alt+ArrowUp');
      expect(await rowTitles()).toEqual(['Sign up', 'Welcome']);
      expect(await page.evaluate(() => document.activeElement?.querySelector('.row-title')?.textContent)).toBe(
        'Sign up',
      );
      await press('Move Sign up down');
      expect(await rowTitles()).toEqual(['Welcome', 'Sign up']);

      await press('Duplicate Welcome');
      expect(await rowTitles()).toEqual(['Welcome', 'Welcome', 'Sign up']);
      await page.getByRole('button', { name: 'Remove Welcome' }).nth(1).focus();
      await page.keyboard.press('Enter');
      expect(await rowTitles()).toEqual(['Welcome', 'Sign up']);

      // Insert between the two rows; an untitled row is named after its block.
      await press('Add a block after Welcome');
      await press(/^Hero/);
      expect(await rowTitles()).toEqual(['Welcome', 'Hero 2', 'Sign up']);

      await press('Collapse all');
      expect(await page.locator('.field-blocks .row-body:visible').count()).toBe(0);
      await press('Expand all');
      expect(await page.locator('.field-blocks .row-body:visible').count()).toBe(3);
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  test(
    'a failed save shows errors on the row that has them, counted on folded rows and on tabs',
    async () => {
      await page.keyboard.press('Control+s');
      await page.getByRole('alert').filter({ hasText: 'need attention' }).waitFor();
      const middle = page.locator('.field-blocks [data-row]').nth(1);
      expect(await middle.locator('.field-error').first().textContent()).toBeTruthy();
      expect(await page.locator('[data-path="layout.1.heading"].has-error').count()).toBe(1);
      // Folded, the row still says it holds an error.
      await middle.locator('.row-toggle').focus();
      await page.keyboard.press('Enter');
      expect(await middle.locator('.error-count').textContent()).toBe('1 error');
      // Each tab counts the errors inside it; arrow keys move between tabs.
      const seoTab = page.getByRole('tab', { name: /SEO/ });
      expect(await seoTab.textContent()).toContain('1 error');
      expect(await page.getByRole('tab', { name: /Content/ }).textContent()).toContain('1 error');
      expect(await page.getByRole('tab', { name: /Meta/ }).textContent()).toBe('Meta');
      await page.getByRole('tab', { name: /Content/ }).focus();
      await page.keyboard.press('ArrowRight');
      expect(await seoTab.getAttribute('aria-selected')).toBe('true');
      await page.locator('#field-summary').fill('Start here');
      await page.getByRole('tab', { name: /Meta/ }).click();
      await page.locator('#field-meta-description').fill('About the home page');
      await page.getByRole('tab', { name: /Content/ }).click();
      await middle.locator('.row-toggle').click();
      await page.locator('#field-layout-1-heading').fill('Middle');
      await page.keyboard.press('Control+s');
      await page.waitForURL(/\/collections\/pages\/\d+$/);
      pageId = Number(page.url().split('/').pop());
      const saved = (await t.request('GET', `/pages/${pageId}`, { token: s.token })).body;
      expect(saved.layout.map((r: { blockType: string }) => r.blockType)).toEqual(['hero', 'hero', 'cta']);
      expect(saved.layout.map((r: Record<string, string>) => r.heading ?? r.label)).toEqual([
        'Welcome',
        'Middle',
        'Sign up',
      ]);
      expect(saved.meta).toEqual({ description: 'About the home page' });
      expect(saved.summary).toBe('Start here');
      expect(new Set(saved.layout.map((r: { id: string }) => r.id)).size).toBe(3);
    },
    STEP,
  );

  test(
    'a row can be dragged by its handle',
    async () => {
      await page.getByRole('heading', { name: 'Home' }).waitFor();
      const rows = page.locator('.field-blocks [data-row]');
      await rows.nth(2).locator('.drag-handle').dragTo(rows.nth(0));
      expect(await rowTitles()).toEqual(['Sign up', 'Welcome', 'Middle']);
    },
    STEP,
  );

  test(
    'radio, point and code in a row and a collapsible; a sidebar field with placeholder and description',
    async () => {
      await page.locator('input[type=radio][value=landing]').focus();
      await page.keyboard.press('Space');
      await page.locator('#field-place').fill('13.4');
      await page.locator('#field-place-lat').fill('52.5');
      // The collapsible starts open; the code box takes a tab as text.
      await page.locator('#field-snippet').focus();
      await page.keyboard.type('if (x) {');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Tab');
      await page.keyboard.type('go()');
      expect(await page.locator('#field-snippet').inputValue()).toBe('if (x) {\n\tgo()');
      // Escape, then Tab, leaves the box.
      await page.keyboard.press('Escape');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).not.toBe('field-snippet');

      const sidebar = page.getByRole('complementary').getByRole('region', { name: 'More fields' });
      expect(await sidebar.locator('#field-slug').getAttribute('placeholder')).toBe('page-slug');
      expect(await sidebar.textContent()).toContain('The last part of the URL');
      await sidebar.locator('#field-slug').fill('home');
      await page.getByRole('button', { name: 'Advanced' }).click();
      expect(await page.locator('#field-snippet').isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      // Exactly "Saved": "Unsaved changes" is a status too.
      await page
        .getByRole('status')
        .filter({ hasText: /^Saved$/ })
        .waitFor();
      const saved = (await t.request('GET', `/pages/${pageId}`, { token: s.token })).body;
      expect(saved.layout.map((r: Record<string, string>) => r.heading ?? r.label)).toEqual([
        'Sign up',
        'Welcome',
        'Middle',
      ]);
      expect(saved).toMatchObject({ kind: 'landing', place: [13.4, 52.5], snippet: 'if (x) {\n\tgo()', slug: 'home' });
      expect(pageErrors).toEqual([]);
    },
    STEP,
  );

  test(
    'at 375 px the editors fit without sideways scrolling',
    async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await page.goto(admin(`/collections/pages/${pageId}`));
      await page.getByRole('heading', { name: 'Home' }).waitFor();
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
      await page.setViewportSize({ width: 1366, height: 900 });
    },
    STEP,
  );
});
