// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * The admin's trash, the media page's focal point, crop and file replacement, and media folders, in
 * Chromium at 1366 and 375 px against a real server (docs/trash.md, docs/media.md). Each width works on
 * documents of its own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium, type Browser } from '../browser.ts';
import { openAdminLoggedIn } from '../support/admin-page.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { form, png } from '../support/media-fixtures.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  upload: { imageSizes: [{ name: 'square', width: 40, height: 40 }] },
  collections: [
    {
      slug: 'posts',
      trash: true,
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'cover', type: 'upload', relationTo: 'media' },
      ],
    },
    { slug: 'media', folders: true, fields: [] },
  ],
};
const ADMIN = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse 1' };
const WIDTHS = [1366, 375];

describe.skipIf(!hasChromium())('admin: trash, framing and folders', () => {
  let t: TestServer;
  let s: Session;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-admin-trash-media-'));

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer(config);
    expect((await t.request('POST', '/users/first-register', { body: { ...ADMIN } })).status).toBe(200);
    s = await t.login(ADMIN.email, ADMIN.password);
  }, 60_000);
  afterAll(async () => {
    await t?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const post = async (title: string) =>
    (await t.request('POST', '/posts', { token: s.token, body: { title } })).body.doc.id as number;
  const upload = async (name: string, width = 200, height = 100, fields: Record<string, string> = {}) => {
    const res = await t.request('POST', '/media', {
      token: s.token,
      body: form(await png(width, height), name, fields),
    });
    expect(res.status).toBe(201);
    return res.body.doc;
  };
  const read = async (url: string) => (await t.request('GET', url, { token: s.token })).body;

  for (const width of WIDTHS) {
    describe(`at ${width} px`, () => {
      let browser: Browser;
      let page: Page;
      let pageErrors: string[];
      const admin = (p = '') => `${t.url}/admin${p}`;
      const confirm = (name: string) => page.getByRole('dialog').getByRole('button', { name, exact: true }).click();
      const noSideScroll = async () =>
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

      beforeAll(async () => {
        ({ browser, page, pageErrors } = await openAdminLoggedIn(t, ADMIN, { viewport: { width, height: 900 } }));
      }, 30_000);
      afterAll(async () => {
        expect(pageErrors).toEqual([]);
        await browser?.close();
      });

      test('delete moves to the trash; the trash view restores, deletes for good and empties', async () => {
        const [keep, gone, rest1, rest2] = [`Keep ${width}`, `Gone ${width}`, `Rest A ${width}`, `Rest B ${width}`];
        const keepId = await post(keep);
        const ids = [await post(gone), await post(rest1), await post(rest2)];
        await page.goto(admin(`/collections/posts/${keepId}`));
        await page.getByRole('heading', { name: keep }).waitFor();
        await page.getByRole('button', { name: 'More actions' }).click();
        await page.getByRole('button', { name: 'Delete', exact: true }).click();
        await page.getByRole('dialog').getByText('will be moved to the trash').waitFor();
        await confirm('Delete');
        await page.waitForURL(/\/collections\/posts(\?|$)/);
        expect((await read(`/posts/${keepId}?trash=true`)).deletedAt).toBeString();
        for (const id of ids) await t.request('DELETE', `/posts/${id}`, { token: s.token });

        await page.getByRole('link', { name: 'Trash' }).click();
        await page.getByRole('heading', { name: 'Trash: Posts' }).waitFor();
        for (const title of [keep, gone, rest1, rest2])
          await page.getByRole('cell', { name: title, exact: true }).waitFor();
        await noSideScroll();

        await page.getByRole('button', { name: `Restore ${keep}` }).click();
        await page.getByRole('cell', { name: keep, exact: true }).waitFor({ state: 'detached' });
        expect((await read(`/posts/${keepId}`)).title).toBe(keep);

        await page.getByRole('button', { name: `Delete ${gone} for good` }).click();
        await confirm('Delete for good');
        await page.getByRole('cell', { name: gone, exact: true }).waitFor({ state: 'detached' });
        expect((await t.request('GET', `/posts/${ids[0]}?trash=true`, { token: s.token })).status).toBe(404);

        await page.getByRole('button', { name: 'Empty trash' }).click();
        await page.getByRole('dialog').getByText('2 documents will be deleted for good').waitFor();
        await confirm('Empty trash');
        await page.locator('.empty').getByText('The trash is empty.').waitFor();
        expect((await read('/posts?trash=true&where[deletedAt][exists]=true')).totalDocs).toBe(0);
        expect((await read('/posts')).docs.map((d: any) => d.title)).toContain(keep);
      });

      test('a click sets the focal point, a crop is applied, the sizes are made again; Replace file swaps the file', async () => {
        const doc = await upload(`frame-${width}.png`);
        const firstSquare = doc.sizes.square.url as string;
        await page.goto(admin(`/collections/media/${doc.id}`));
        const image = page.getByTestId('frame-image');
        await image.locator('img').waitFor();
        await image.scrollIntoViewIfNeeded();
        const box = (await image.boundingBox())!;
        await image.click({ position: { x: box.width * 0.25, y: box.height * 0.5 } });
        await page.getByRole('status').filter({ hasText: 'Focal point saved' }).waitFor();
        const focused = await read(`/media/${doc.id}`);
        expect(focused.focalX).toBeGreaterThan(20);
        expect(focused.focalX).toBeLessThan(30);
        expect(focused.sizes.square.url).not.toBe(firstSquare);
        expect((await fetch(`${t.url}${new URL(firstSquare, t.url).pathname}`)).status).toBe(404);

        await page.getByLabel('Crop Left').fill('50');
        await page.getByLabel('Crop Width').fill('50');
        await page.getByRole('button', { name: 'Apply crop' }).click();
        await page.getByRole('status').filter({ hasText: 'Crop saved' }).waitFor();
        const cropped = await read(`/media/${doc.id}`);
        expect(cropped.crop).toEqual({ x: 50, y: 0, width: 50, height: 100 });
        expect(cropped.sizes.square.url).not.toBe(focused.sizes.square.url);
        await noSideScroll();

        const replacement = path.join(dir, `replacement-${width}.png`);
        fs.writeFileSync(replacement, await png(120, 90, '#22aa44'));
        await page.locator('.frame-editor input[type=file]').setInputFiles(replacement);
        await page.getByRole('status').filter({ hasText: 'File replaced' }).waitFor();
        const replaced = await read(`/media/${doc.id}`);
        expect(replaced).toMatchObject({ width: 120, height: 90, originalName: `replacement-${width}.png` });
        expect(replaced.filename).not.toBe(doc.filename);
        await page.getByText(`replacement-${width}.png`).first().waitFor();
      });

      test('folders: create one, drag a file into it, filter the upload picker by it', async () => {
        const name = `Trips ${width}`;
        const file = await upload(`loose-${width}.png`, 30, 20);
        await page.goto(admin('/collections/media'));
        await page.getByRole('button', { name: 'New folder' }).click();
        await page.getByLabel('Folder name').fill(name);
        await page.getByRole('button', { name: 'Create', exact: true }).click();
        const tile = page.locator(`.folder-tile[data-folder="${name}"]`);
        await tile.waitFor();
        const card = page.locator('.media-card').filter({ hasText: `loose-${width}.png` });
        await card.dragTo(tile);
        await page.getByRole('status').filter({ hasText: 'Moved' }).waitFor();
        await card.waitFor({ state: 'detached' });
        const folder = (await read(`/payload-folders?where[name][equals]=${encodeURIComponent(name)}`)).docs[0];
        expect((await read(`/media/${file.id}?depth=0`)).folder).toBe(folder.id);

        await tile.click();
        await page
          .locator('.media-card')
          .filter({ hasText: `loose-${width}.png` })
          .waitFor();
        await page.getByRole('list', { name: 'Folder' }).getByRole('button', { name }).waitFor();
        await noSideScroll();

        await page.goto(admin('/collections/posts/create'));
        await page.locator('.upload-empty').click();
        const dialog = page.getByRole('dialog');
        await dialog.locator('.media-card').first().waitFor();
        expect(await dialog.locator('.media-card').count()).toBeGreaterThan(1);
        await dialog.getByLabel('Folder').selectOption({ label: name });
        await dialog
          .locator('.media-card')
          .filter({ hasText: `loose-${width}.png` })
          .waitFor();
        await page.waitForFunction(() => document.querySelectorAll('dialog .media-card').length === 1);
        await dialog.locator('.media-card').click();
        await page.getByRole('link', { name: `loose-${width}.png` }).waitFor();
      });
    });
  }
});
