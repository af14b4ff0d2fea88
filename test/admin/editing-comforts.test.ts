// Runs once (on the SQLite pass): drives Chromium against the admin bundle the build files rebuild.
/**
 * Editing comforts in Chromium at a laptop and a phone width: an upload column in a list shows a picture of
 * each image rather than an empty cell or a file name; "Copy to locale" writes the localized fields' values
into another locale, as a draft on a drafts collection (docs/admin.md).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { adminBuilt } from '../support/admin-build.ts';
import { hasChromium } from '../browser.ts';
import { openAdminLoggedIn, type AdminPage } from '../support/admin-page.ts';
import { form, png } from '../support/media-fixtures.ts';
import { startTestServer, type TestServer } from '../harness.ts';

const ADMIN = { name: 'Ada', email: 'ada@example.com', password: 'correct horse 2' };

describe.skipIf(!hasChromium())('admin editing comforts', () => {
  let t: TestServer;

  beforeAll(async () => {
    await adminBuilt();
    t = await startTestServer({
      localization: { locales: ['en', 'de'], defaultLocale: 'en' },
      collections: [
        {
          slug: 'notes',
          drafts: true,
          admin: { useAsTitle: 'title' },
          fields: [
            { name: 'title', type: 'text', localized: true },
            { name: 'code', type: 'text' },
          ],
        },
        {
          slug: 'posts',
          admin: { useAsTitle: 'title' },
          fields: [
            { name: 'title', type: 'text' },
            { name: 'cover', type: 'upload', relationTo: 'media' },
          ],
        },
      ],
    });
    await t.request('POST', '/users/first-register', { body: { ...ADMIN } });
    const s = await t.login(ADMIN.email, ADMIN.password);
    const image = await t.request('POST', '/media', {
      token: s.token,
      body: form(await png(300, 200), 'harbour.png', { alt: 'The harbour at dusk' }, 'image/png'),
    });
    expect(image.status).toBe(201);
    await t.request('POST', '/posts', { token: s.token, body: { title: 'With a cover', cover: image.body.doc.id } });
    await t.request('POST', '/posts', { token: s.token, body: { title: 'Without one' } });
    for (const title of ['Harbour walk', 'Market day'])
      await t.request('POST', '/notes?locale=en', { token: s.token, body: { title, code: title.slice(0, 3) } });
  }, 60_000);

  afterAll(async () => {
    await t?.stop();
  });

  for (const width of [1366, 375]) {
    test(`an upload column shows the image's thumbnail at ${width} px`, async () => {
      let opened: AdminPage | undefined;
      try {
        opened = await openAdminLoggedIn(t, ADMIN, { viewport: { width, height: 860 } });
        const { page, pageErrors } = opened;
        await page.goto(`${t.url}/admin/collections/posts`);
        await page.getByRole('link', { name: 'With a cover' }).waitFor();
        const thumb = page.getByRole('row', { name: /With a cover/ }).getByRole('img', { name: 'The harbour at dusk' });
        await thumb.waitFor();
        expect(await thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        const box = (await thumb.boundingBox())!;
        expect(Math.round(box.width)).toBe(40);
        expect(
          await page
            .getByRole('row', { name: /Without one/ })
            .getByRole('img')
            .count(),
        ).toBe(0);
        expect(pageErrors).toEqual([]);
      } finally {
        await opened?.browser.close();
      }
    }, 30_000);
  }

  for (const [width, id, title] of [
    [1366, 1, 'Harbour walk'],
    [375, 2, 'Market day'],
  ] as const) {
    test(`"Copy to locale" copies the localized fields into German as a draft at ${width} px`, async () => {
      let opened: AdminPage | undefined;
      try {
        opened = await openAdminLoggedIn(t, ADMIN, { viewport: { width, height: 860 } });
        const { page, pageErrors } = opened;
        await page.goto(`${t.url}/admin/collections/notes/${id}`);
        await page.getByRole('heading', { name: title }).waitFor();
        await page.getByRole('button', { name: 'More actions' }).click();
        await page.getByRole('button', { name: 'Copy to locale' }).click();
        const dialog = page.getByRole('dialog', { name: 'Copy to locale' });
        await dialog.getByLabel('Target locale').selectOption('de');
        await dialog.getByRole('button', { name: 'Copy' }).click();
        await dialog.waitFor({ state: 'detached' });
        const s = await t.login(ADMIN.email, ADMIN.password);
        const german = await t.request('GET', `/notes/${id}?locale=de&fallback-locale=false&draft=true`, {
          token: s.token,
        });
        expect(german.body.title).toBe(title);
        expect(german.body.status).toBe('draft');
        expect(pageErrors).toEqual([]);
      } finally {
        await opened?.browser.close();
      }
    }, 30_000);
  }
});
