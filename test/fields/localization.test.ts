/** Localization (docs/config.md, docs/documents.md): locale codes and `all` on reads and writes, fallback, filters. */
import { describe, expect, test, beforeAll, afterAll } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };

describe('localization', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      localization: { locales: ['en', 'de', 'fr'], defaultLocale: 'en' },
      collections: [
        {
          slug: 'pages',
          access: open,
          fields: [
            { name: 'title', type: 'text', localized: true, required: true },
            { name: 'slug', type: 'text' },
            { name: 'seo', type: 'group', fields: [{ name: 'description', type: 'text', localized: true }] },
          ],
        },
      ],
      globals: [
        {
          slug: 'site',
          access: { read: () => true, update: () => true },
          fields: [{ name: 'tagline', type: 'text', localized: true }],
        },
      ],
    });
    await t.request('POST', '/pages', { body: { title: 'Hello', slug: 'home', seo: { description: 'About us' } } });
    await t.request('PATCH', '/pages/1?locale=de', { body: { title: 'Hallo', seo: { description: 'Über uns' } } });
  });
  afterAll(() => t.stop());

  test('writing one locale leaves the others alone', async () => {
    const all = await t.request('GET', '/pages/1?locale=all');
    expect(all.body.title).toEqual({ en: 'Hello', de: 'Hallo' });
    expect(all.body.seo.description).toEqual({ en: 'About us', de: 'Über uns' });
    expect(all.body.slug).toBe('home');
  });
  test('reading a locale picks its values', async () => {
    const de = await t.request('GET', '/pages/1?locale=de');
    expect(de.body.title).toBe('Hallo');
    expect(de.body.seo.description).toBe('Über uns');
  });
  test('default locale without a locale parameter', async () => {
    expect((await t.request('GET', '/pages/1')).body.title).toBe('Hello');
  });
  test('a missing locale falls back to the default one', async () => {
    expect((await t.request('GET', '/pages/1?locale=fr')).body.title).toBe('Hello');
  });
  test('fallback-locale=false returns null for a missing locale', async () => {
    expect((await t.request('GET', '/pages/1?locale=fr&fallback-locale=false')).body.title).toBeNull();
  });
  test('filters and sorts run on the requested locale', async () => {
    expect((await t.request('GET', '/pages?locale=de&where[title][equals]=Hallo')).body.totalDocs).toBe(1);
    expect((await t.request('GET', '/pages?locale=en&where[title][equals]=Hallo')).body.totalDocs).toBe(0);
    expect((await t.request('GET', '/pages?locale=fr&where[title][equals]=Hello')).body.totalDocs).toBe(1);
    expect(
      (await t.request('GET', '/pages?locale=fr&fallback-locale=false&where[title][equals]=Hello')).body.totalDocs,
    ).toBe(0);
    expect((await t.request('GET', '/pages?locale=de&sort=title')).status).toBe(200);
  });
  test('locale=all on write takes objects keyed by locale', async () => {
    const res = await t.request('POST', '/pages?locale=all', { body: { title: { en: 'Two', fr: 'Deux' } } });
    expect(res.status).toBe(201);
    expect(res.body.doc.title).toEqual({ en: 'Two', fr: 'Deux' });
    const bad = await t.request('POST', '/pages?locale=all', { body: { title: 'flat' } });
    expect(bad.status).toBe(400);
  });
  test('an unknown locale is a 400', async () => {
    expect((await t.request('GET', '/pages/1?locale=xx')).status).toBe(400);
    expect((await t.request('PATCH', '/pages/1?locale=xx', { body: { title: 'x' } })).status).toBe(400);
  });
  test('globals are localized too', async () => {
    await t.request('POST', '/globals/site', { body: { tagline: 'Fast' } });
    await t.request('POST', '/globals/site?locale=de', { body: { tagline: 'Schnell' } });
    expect((await t.request('GET', '/globals/site?locale=de')).body.tagline).toBe('Schnell');
    expect((await t.request('GET', '/globals/site?locale=all')).body.tagline).toEqual({ en: 'Fast', de: 'Schnell' });
  });
});
