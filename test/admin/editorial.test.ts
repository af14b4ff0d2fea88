// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The admin through a day of editorial work, in Chromium against a real server:
 * lists show pending drafts, typed values survive a lost session, phones (375 px) never scroll sideways,
 * publishing reports required fields, relationship pickers search the server and create inline, and the
 * smaller fixes. Saves screenshots of the main views at 1366 and 375 px under test-artifacts/admin/.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { logInThroughForm, openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { form, pdf } from '../support/media-fixtures.ts';

const config: UserConfig = {
  auth: { maxLoginAttempts: 2 },
  collections: [
    { slug: 'categories', admin: { useAsTitle: 'name' }, fields: [{ name: 'name', type: 'text', required: true }] },
    {
      slug: 'posts',
      drafts: true,
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'category', type: 'relationship', relationTo: 'categories' },
        { name: 'tags', type: 'relationship', relationTo: 'categories', hasMany: true },
        { name: 'author', type: 'relationship', relationTo: 'users' },
        { name: 'summary', type: 'textarea' },
        { name: 'aRatherLongColumnName', type: 'text' },
        { name: 'views', type: 'number' },
        { name: 'cover', type: 'upload', relationTo: 'media' },
      ],
    },
  ],
  globals: [
    {
      slug: 'banner',
      drafts: true,
      fields: [
        { name: 'text', type: 'text', required: true },
        { name: 'link', type: 'text' },
      ],
    },
  ],
};

const ADMIN = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse 1' };
const STEP = 20_000;
const SHOTS = path.join(import.meta.dir, '../..', 'test-artifacts', 'admin');

describe.skipIf(!hasChromium())('admin: a day of editorial work', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let s: Session;
  let postId: number;
  let pageErrors: string[] = [];
  const admin = (p = '') => `${t.url}/admin${p}`;
  const main = () => page.getByRole('navigation', { name: 'Main' });

  const logIn = () => logInThroughForm(page, ADMIN);

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer(config);
    const first = await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    expect(first.status).toBe(200);
    s = await t.login(ADMIN.email, ADMIN.password);
    // 130 categories: more than the old picker's 100.
    for (let i = 1; i <= 130; i++)
      await t.request('POST', '/categories', {
        token: s.token,
        body: { name: `Category ${String(i).padStart(3, '0')}` },
      });
    const post = await t.request('POST', '/posts', {
      token: s.token,
      body: { title: 'Live title', status: 'published', category: 120, author: first.body.user.id },
    });
    postId = post.body.doc.id;
    ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.stop();
  });

  test(
    'defect 1: the list shows and searches the pending draft, with a "changes pending" badge',
    async () => {
      await page.goto(admin(`/collections/posts/${postId}`));
      await page.getByRole('heading', { name: 'Live title' }).waitFor();
      await page.locator('#field-title').fill('Draft headline');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
      await main().getByRole('link', { name: 'Posts' }).click();
      const row = page.getByRole('row', { name: /Draft headline/ });
      await row.waitFor();
      expect(await row.textContent()).toContain('Changes pending');
      expect(await row.textContent()).toContain('Published');
      await page.getByRole('searchbox').fill('headline');
      await page.waitForURL(/q=headline/);
      await page.getByRole('row', { name: /Draft headline/ }).waitFor();
      expect(await page.getByRole('row').count()).toBe(2); // header + the one match
    },
    STEP,
  );

  test(
    'defect 6: "Save draft" on an unchanged form adds no version',
    async () => {
      const before = (await t.request('GET', `/posts/${postId}/versions`, { token: s.token })).body.totalDocs;
      await page.goto(admin(`/collections/posts/${postId}`));
      await page.getByRole('heading', { name: 'Draft headline' }).waitFor();
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Nothing to save' }).waitFor();
      expect((await t.request('GET', `/posts/${postId}/versions`, { token: s.token })).body.totalDocs).toBe(before);
    },
    STEP,
  );

  test(
    'defect 2: typed values survive a lost session and are offered back after logging in',
    async () => {
      await page.locator('#field-summary').fill('Typed before the session ended');
      await page.context().clearCookies();
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByText('Your session has ended').waitFor();
      await logIn();
      await page.getByRole('heading', { name: 'Draft headline' }).waitFor();
      expect(await page.locator('#field-summary').inputValue()).toBe('');
      await page.getByRole('button', { name: 'Restore unsaved changes' }).click();
      expect(await page.locator('#field-summary').inputValue()).toBe('Typed before the session ended');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
      const draft = await t.request('GET', `/posts/${postId}?draft=true`, { token: s.token });
      expect(draft.body.summary).toBe('Typed before the session ended');
      await page.reload();
      await page.getByRole('heading', { name: 'Draft headline' }).waitFor();
      expect(await page.getByRole('button', { name: 'Restore unsaved changes' }).count()).toBe(0);
    },
    STEP,
  );

  test(
    'defect 5: the relationship picker names a document beyond the first 100 and searches the server',
    async () => {
      const chip = page.locator('[data-path="category"] .chip');
      await chip.getByText('Category 120').waitFor();
      const box = page.locator('#field-category');
      await box.fill('127');
      await page.getByRole('option', { name: /Category 127/ }).click();
      await chip.getByText('Category 127').waitFor();
      // Keyboard: type, arrow down, Enter.
      const tags = page.locator('#field-tags');
      await tags.fill('Category 13');
      await page.getByRole('option', { name: /Category 130/ }).waitFor();
      await tags.press('ArrowDown');
      await tags.press('Enter');
      await page.locator('[data-path="tags"] .chip').first().waitFor();
      // The list pages by 10 with "More".
      await tags.press('ArrowDown');
      await page.getByRole('option', { name: /Category 010/ }).waitFor();
      await page.getByRole('button', { name: /More \(/ }).click();
      await page.getByRole('option', { name: /Category 020/ }).waitFor();
      await tags.press('Escape');
    },
    STEP,
  );

  test(
    'defect 5: a related document is created in a drawer and chosen',
    async () => {
      await page.locator('[data-path="category"]').getByRole('button', { name: 'Create new' }).click();
      const drawer = page.getByRole('dialog', { name: 'New category' });
      await drawer.getByRole('button', { name: 'Create', exact: true }).click();
      await drawer.locator('.field-error').getByText('This field is required.').waitFor();
      await drawer.getByLabel('Name').fill('Fresh category');
      await drawer.getByRole('button', { name: 'Create', exact: true }).click();
      await page.locator('[data-path="category"] .chip').getByText('Fresh category').waitFor();
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
      const draft = await t.request('GET', `/posts/${postId}?draft=true&depth=1`, { token: s.token });
      expect(draft.body.category.name).toBe('Fresh category');
      expect(draft.body.tags.length).toBe(1);
    },
    STEP,
  );

  test(
    'defect 6: focus returns to the upload field when the media picker closes; files go by their original names',
    async () => {
      const uploaded = await t.request('POST', '/media', {
        token: s.token,
        body: form(pdf(), 'Holiday notes.pdf', {}, 'application/pdf'),
      });
      await page.locator('#field-cover').click();
      const dialog = page.getByRole('dialog', { name: 'Choose a file' });
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.activeElement?.id === 'field-cover');
      expect(uploaded.status).toBe(201);
      expect(uploaded.body.doc.filename).not.toBe('Holiday notes.pdf');
      await page.goto(admin(`/collections/media/${uploaded.body.doc.id}`));
      await page.getByRole('heading', { name: 'Holiday notes.pdf' }).waitFor();
      await page.goto(admin(`/collections/posts/${postId}`));
      await page.getByRole('heading', { name: 'Draft headline' }).waitFor();
    },
    STEP,
  );

  test(
    'defect 6: users are named alike in pickers and lists',
    async () => {
      const author = page.locator('[data-path="author"] .chip');
      await author.getByText(ADMIN.name, { exact: true }).waitFor();
      await main().getByRole('link', { name: 'Posts' }).click();
      expect(await page.getByRole('row', { name: /Draft headline/ }).textContent()).toContain(ADMIN.name);
    },
    STEP,
  );

  test(
    'defect 4 and 6: publishing a never-saved global reports the required field; then Unpublish and "changes pending"',
    async () => {
      await main().getByRole('link', { name: 'Banner' }).click();
      await page.getByRole('heading', { name: 'Banner' }).waitFor();
      await page.getByLabel('Link').fill('/sale');
      await page.getByRole('button', { name: 'Publish' }).click();
      const field = page.locator('[data-path="text"]');
      await field.locator('.field-error').waitFor();
      expect(await field.locator('.field-error').textContent()).toBe('This field is required.');
      expect((await t.request('GET', '/globals/banner', { token: s.token })).body.status).toBe('draft');
      await page.getByLabel('Text').fill('Big sale');
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByRole('status').filter({ hasText: 'Published' }).waitFor();
      await page.getByLabel('Text').fill('Bigger sale');
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.getByRole('status').filter({ hasText: 'Draft saved' }).waitFor();
      await page.getByText('changes pending').waitFor();
      await page.getByRole('button', { name: 'Unpublish' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Unpublish' }).click();
      await page.getByRole('status').filter({ hasText: 'Unpublished' }).waitFor();
      expect((await t.request('GET', '/globals/banner', { token: s.token })).body.status).toBe('draft');
    },
    STEP,
  );

  test(
    'defect 6: the "created" banner goes after the next save; the summary names "Confirm password"',
    async () => {
      await page.goto(admin('/collections/api-keys/create'));
      await page.getByLabel('Name').fill('Deploy bot');
      await page.locator('#field-user').fill('Ada');
      await page.getByRole('option', { name: /Ada Lovelace/ }).click();
      await page.getByRole('checkbox', { name: 'posts:read' }).check();
      await page.getByRole('button', { name: 'Create' }).click();
      await page.getByText('API key created.').waitFor();
      await page.getByLabel('Name').fill('Deploy bot 2');
      await page.getByRole('button', { name: 'Save' }).click();
      await page
        .locator('.toast')
        .filter({ hasText: /^Saved$/ })
        .waitFor();
      expect(await page.getByText('API key created.').count()).toBe(0);

      await page.goto(admin('/collections/users/create'));
      await page.getByLabel('Email').fill('bob@example.com');
      await page.locator('#field-password').fill('password one');
      await page
        .locator('#field-confirmPassword, [id="field-confirmPassword"], #field-confirm-password')
        .first()
        .fill('password two');
      await page.getByRole('button', { name: 'Create' }).click();
      const summary = page.getByRole('alert');
      await summary.waitFor();
      expect(await summary.textContent()).toContain('Confirm password');
      expect(await summary.textContent()).not.toContain('confirmPassword');
    },
    STEP,
  );

  test(
    'defect 6: control borders reach 3:1 against their background',
    async () => {
      const ratio = await page.evaluate(() => {
        const rgb = (c: string) => (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
        const lum = (c: number[]) => {
          const [r, g, b] = c.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
        };
        const input = document.querySelector('#field-email')!;
        const border = lum(rgb(getComputedStyle(input).borderTopColor));
        const bg = lum(rgb(getComputedStyle(document.body).backgroundColor || 'rgb(255,255,255)'));
        const panel = lum([255, 255, 255]);
        return Math.min(
          (Math.max(border, bg) + 0.05) / (Math.min(border, bg) + 0.05),
          (panel + 0.05) / (border + 0.05),
        );
      });
      expect(ratio).toBeGreaterThanOrEqual(3);
    },
    STEP,
  );

  test(
    'defect 6: the login-lock message is said once',
    async () => {
      await page.getByRole('button', { name: 'Log out' }).click();
      await page
        .getByRole('dialog', { name: 'Leave without saving?' })
        .getByRole('button', { name: 'Leave page' })
        .click();
      await page.getByRole('heading', { name: 'Log in' }).waitFor();
      for (let i = 0; i < 3; i++) {
        await page.getByLabel('Email').fill('nobody@example.com');
        await page.getByLabel('Password').fill('wrong password');
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.getByRole('alert').waitFor();
      }
      await page.getByRole('alert').filter({ hasText: 'Too many' }).waitFor();
      const text = (await page.getByRole('alert').textContent()) ?? '';
      expect(text.match(/too many/gi)?.length).toBe(1);
      await page.getByLabel('Email').fill(ADMIN.email);
      await page.getByLabel('Password').fill(ADMIN.password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { name: 'New user' }).waitFor(); // back where the session ended
    },
    STEP,
  );

  const views = (): { name: string; path: string; heading: string | RegExp }[] => [
    { name: 'dashboard', path: '/', heading: `Welcome, ${ADMIN.name}` },
    { name: 'posts-list', path: '/collections/posts', heading: 'Posts' },
    { name: 'post-edit', path: `/collections/posts/${postId}`, heading: 'Draft headline' },
    { name: 'post-create', path: '/collections/posts/create', heading: 'New post' },
    { name: 'users-list', path: '/collections/users', heading: 'Users' },
    { name: 'api-keys-list', path: '/collections/api-keys', heading: 'API keys' },
    { name: 'categories-list', path: '/collections/categories', heading: 'Categories' },
    { name: 'global', path: '/globals/banner', heading: 'Banner' },
    { name: 'media', path: '/collections/media', heading: 'Media' },
  ];

  /** Opens the view, waits until it has loaded, and expects it no wider than the window. */
  async function expectNoSideScroll(v: ReturnType<typeof views>[number]): Promise<void> {
    await page.goto(admin(v.path));
    await page.getByRole('heading', { name: v.heading, exact: true }).first().waitFor();
    await page.waitForLoadState('networkidle');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect({ view: v.name, overflow }).toEqual({ view: v.name, overflow: 0 });
  }

  for (const width of [375, 360]) {
    test(`defect 3: at ${width} px no main view scrolls sideways, and the edit actions stay on screen`, async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      await page.setViewportSize({ width, height: 780 });
      for (const v of views()) {
        await expectNoSideScroll(v);
        if (width === 375) await page.screenshot({ path: path.join(SHOTS, `${v.name}-375.png`), fullPage: false });
      }
      await page.goto(admin(`/collections/posts/${postId}`));
      const saveDraft = page.getByRole('button', { name: 'Save draft' });
      const box = (await saveDraft.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      // The navigation is behind a menu button and opens on demand.
      expect(await main().isVisible()).toBe(false);
      await page.getByRole('button', { name: 'Menu' }).click();
      await main().getByRole('link', { name: 'Categories' }).click();
      await page.getByRole('heading', { name: 'Categories' }).waitFor();
      expect(await main().isVisible()).toBe(false);
    }, 40_000);
  }

  test('at 1366 px no main view scrolls sideways (screenshots of each)', async () => {
    await page.setViewportSize({ width: 1366, height: 900 });
    for (const v of views()) {
      await expectNoSideScroll(v);
      await page.screenshot({ path: path.join(SHOTS, `${v.name}-1366.png`) });
    }
  }, 40_000);

  test('no uncaught errors in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});
