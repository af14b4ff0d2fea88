/**
 * `cms import payload` (docs/moving-in.md) on the engine of the run: a second server of ours, speaking Payload's
 * REST API, is the source. Every collection and global comes over in all locales with ids kept, relationships
 * intact, the published version with its pending draft, uploads with their files; a rerun changes nothing;
 * wrong credentials stop before anything is written.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { UserConfig } from '../../src/config/types.ts';
import { importPayload } from '../../src/moving-in/payload-import.ts';
import type { ImportReport } from '../../src/moving-in/report.ts';
import { localAPI } from '../../src/local.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { png } from '../support/media-fixtures.ts';

const config: UserConfig = {
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  collections: [
    { slug: 'categories', fields: [{ name: 'name', type: 'text', localized: true }] },
    {
      slug: 'posts',
      drafts: true,
      fields: [
        { name: 'title', type: 'text', localized: true },
        { name: 'category', type: 'relationship', relationTo: 'categories' },
        { name: 'image', type: 'upload', relationTo: 'media' },
        { name: 'related', type: 'relationship', relationTo: 'posts', hasMany: true },
      ],
    },
  ],
  globals: [{ slug: 'settings', fields: [{ name: 'siteName', type: 'text', localized: true }] }],
};
const ADMIN = { email: 'source-admin@example.com', password: 'correct horse battery staple' };

describe('cms import payload', () => {
  let source: TestServer;
  let target: TestServer;
  let dry: ImportReport;
  let first: ImportReport;
  let second: ImportReport;
  const ids: Record<string, number> = {};
  let imageBytes: Uint8Array;

  beforeAll(async () => {
    source = await startTestServer(config);
    await source.user('admin', ADMIN.email, ADMIN.password);
    const api = localAPI(source.cms);
    // A gap in the ids: kept ids must not be renumbered.
    const gone = await api.create({ collection: 'categories', data: { name: 'Gone' } });
    await api.delete({ collection: 'categories', id: gone.id as number });
    const news = await api.create({ collection: 'categories', data: { name: 'News' }, locale: 'en' });
    await api.update({ collection: 'categories', id: news.id as number, data: { name: 'Nachrichten' }, locale: 'de' });
    imageBytes = new Uint8Array(await png(30, 20));
    const image = await api.upload({ file: { data: imageBytes, name: 'cover.png' }, data: { alt: 'Cover' } });
    const older = await api.create({ collection: 'posts', data: { title: 'Older', status: 'published' } });
    const live = await api.create({
      collection: 'posts',
      data: { title: 'Live', category: news.id, image: image.id, related: [older.id], status: 'published' },
      locale: 'en',
    });
    await api.update({ collection: 'posts', id: live.id as number, data: { title: 'Aktuell' }, locale: 'de' });
    await api.update({ collection: 'posts', id: live.id as number, data: { title: 'Live, edited' }, draft: true });
    const draftOnly = await api.create({ collection: 'posts', data: { title: 'Only a draft' }, draft: true });
    await api.updateGlobal({ slug: 'settings', data: { siteName: 'Harbour' }, locale: 'en' });
    await api.updateGlobal({ slug: 'settings', data: { siteName: 'Hafen' }, locale: 'de' });
    Object.assign(ids, { news: news.id, image: image.id, older: older.id, live: live.id, draftOnly: draftOnly.id });

    target = await startTestServer(config);
    dry = (await importPayload(target.cms, { url: source.api, ...ADMIN, dryRun: true })).report;
    first = (await importPayload(target.cms, { url: source.api, ...ADMIN, dryRun: false })).report;
    second = (await importPayload(target.cms, { url: source.api, ...ADMIN, dryRun: false })).report;
  });
  afterAll(async () => {
    await source?.stop();
    await target?.stop();
  });

  test('every document and global arrives once; a rerun reports them unchanged', () => {
    expect(first.errors).toEqual([]);
    expect(first.collections).toEqual({
      categories: { created: 1, updated: 0, unchanged: 0, failed: 0 },
      media: { created: 1, updated: 0, unchanged: 0, failed: 0 },
      posts: { created: 3, updated: 0, unchanged: 0, failed: 0 },
      'global settings': { created: 1, updated: 0, unchanged: 0, failed: 0 },
    });
    expect(first.media.imported).toBe(1);
    for (const counts of Object.values(second.collections)) expect(counts.created + counts.updated).toBe(0);
  });

  test('the dry run before it reported the same and wrote nothing', () => {
    expect({ ...dry, dryRun: false }).toEqual(first);
  });

  test('ids are kept, so relationships stay as they were; every locale comes along', async () => {
    const api = localAPI(target.cms);
    const live = await api.findByID({ collection: 'posts', id: ids.live!, locale: 'all', depth: 0 });
    expect(live.title).toEqual({ en: 'Live', de: 'Aktuell' });
    expect(live.category).toBe(ids.news);
    expect(live.image).toBe(ids.image);
    expect(live.related).toEqual([ids.older]);
    const news = await api.findByID({ collection: 'categories', id: ids.news!, locale: 'all' });
    expect(news.name).toEqual({ en: 'News', de: 'Nachrichten' });
    const settings = await api.findGlobal({ slug: 'settings', locale: 'all' });
    expect(settings.siteName).toEqual({ en: 'Harbour', de: 'Hafen' });
    // New documents continue after the kept ids.
    const next = await api.create({ collection: 'categories', data: { name: 'Later' } });
    expect(next.id as number).toBeGreaterThan(ids.news!);
  });

  test('the published version with its pending draft; a draft-only document stays a draft', async () => {
    const api = localAPI(target.cms);
    expect((await api.findByID({ collection: 'posts', id: ids.live!, depth: 0 })).title).toBe('Live');
    expect((await api.findByID({ collection: 'posts', id: ids.live!, draft: true, depth: 0 })).title).toBe(
      'Live, edited',
    );
    const draft = await api.findByID({ collection: 'posts', id: ids.draftOnly!, draft: true, depth: 0 });
    expect(draft.status).toBe('draft');
    expect(draft.title).toBe('Only a draft');
  });

  test('uploads bring their files', async () => {
    const image = await localAPI(target.cms).findByID({ collection: 'media', id: ids.image! });
    expect(image.alt).toBe('Cover');
    const res = await target.fetch(`/media/file/${image.filename}`);
    expect(res.status).toBe(200);
    expect(Bun.hash(await res.arrayBuffer())).toBe(Bun.hash(imageBytes));
  });

  test('wrong credentials stop before anything is written', async () => {
    const empty = await startTestServer(config);
    try {
      const error = await importPayload(empty.cms, {
        url: source.api,
        email: ADMIN.email,
        password: 'wrong password',
        dryRun: false,
      }).catch((e) => e);
      expect(String(error.message)).toContain('refused the sign-in');
      const badKey = await importPayload(empty.cms, { url: source.api, key: 'cms_not_a_key', dryRun: false }).catch(
        (e) => e,
      );
      expect(String(badKey.message)).toContain('API key');
      const rows = await empty.cms.store.get<{ n: number }>('SELECT COUNT(*) AS "n" FROM "posts"');
      expect(Number(rows!.n)).toBe(0);
    } finally {
      await empty.stop();
    }
  });
});
