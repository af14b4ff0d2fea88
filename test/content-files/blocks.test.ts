/**
 * Blocks leave the server whole: `cms export` then `cms import` into an empty instance then export again
 * gives the same bytes (row ids, block types, localized fields inside rows, rows inside tabs), and a
 * webhook body carries the rows with every locale and without the hidden fields inside them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { importContent } from '../../src/content-files/import-content.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { localAPI } from '../../src/local.ts';
import { flushWebhooks } from '../../src/webhooks/start-webhooks.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { exportImportExport, type RoundTrip } from '../support/round-trip.ts';
import { websiteConfig } from '../fixtures/website-template.ts';
import { fingerprint } from '../support/media-fixtures.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';

const readJSON = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

const layout = [
  {
    id: 'cta-one',
    blockType: 'cta',
    blockName: 'Top',
    title: 'Start here',
    links: [{ link: { label: 'Docs', url: '/docs' } }],
  },
  {
    blockType: 'content',
    columns: [
      { size: 'half', text: 'Left' },
      { size: 'full', text: 'Wide' },
    ],
  },
  { blockType: 'archive', title: 'Latest', nested: [{ blockType: 'quote', text: 'Quoted' }] },
];

// A collection read without times (`timestamps: false`) exports none; an import still fills them in.
const withNotes = (): UserConfig => {
  const config = websiteConfig();
  const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
  return {
    ...config,
    collections: [
      ...config.collections!,
      { slug: 'notes', timestamps: false, access: open, fields: [{ name: 'text', type: 'text' }] },
    ],
  };
};

describe('blocks through export and import', () => {
  let trip: RoundTrip;
  let pageId: number;

  beforeAll(async () => {
    trip = await exportImportExport(withNotes, async (source) => {
      const api = localAPI(source.cms);
      await api.create({ collection: 'notes', data: { text: 'No times' } });
      const post = await api.create({ collection: 'posts', data: { title: 'A post' } });
      const rows = layout.map((row) => (row.blockType === 'archive' ? { ...row, featured: post.id } : row));
      const page = await api.create({
        collection: 'pages',
        data: { title: 'Home', hero: { headline: 'Welcome' }, layout: rows, status: 'published' },
        locale: 'en',
      });
      pageId = page.id as number;
      const stored = (await api.findByID({ collection: 'pages', id: pageId, locale: 'de', depth: 0 })) as any;
      const german = stored.layout.map((row: any) =>
        row.blockType === 'cta' ? { ...row, title: 'Fang hier an' } : row,
      );
      await api.update({
        collection: 'pages',
        id: pageId,
        data: { layout: german, hero: { headline: 'Willkommen' } },
        locale: 'de',
      });
    });
  });
  afterAll(async () => {
    await trip?.stop();
  });

  test('the second export is byte-identical to the first', () => {
    expect(fingerprint(trip.second)).toEqual(fingerprint(trip.first));
  });

  test('the exported page holds its rows with ids, types, names and every locale of their fields', () => {
    const page = readJSON(path.join(trip.first, 'pages', `${pageId}.json`));
    expect(page.layout.map((row: any) => row.blockType)).toEqual(['cta', 'content', 'archive']);
    expect(page.layout[0]).toMatchObject({
      id: 'cta-one',
      blockName: 'Top',
      title: { en: 'Start here', de: 'Fang hier an' },
    });
    expect(typeof page.layout[1].id).toBe('string');
    expect(page.layout[2].nested[0]).toMatchObject({ blockType: 'quote', text: 'Quoted' });
    expect(page.hero.headline).toEqual({ en: 'Welcome', de: 'Willkommen' });
  });

  test('the imported page reads as the original, row ids kept', async () => {
    const original = await trip.source.request('GET', `/pages/${pageId}?depth=0&locale=de`);
    const copy = await trip.target.request('GET', `/pages/${pageId}?depth=0&locale=de`);
    expect(copy.status).toBe(200);
    expect(copy.body.layout).toEqual(original.body.layout);
    expect(copy.body.layout[0].title).toBe('Fang hier an');
  });

  test('a collection without timestamps comes back', async () => {
    const notes = await trip.target.request('GET', '/notes');
    expect(notes.body.docs).toEqual([{ id: 1, text: 'No times' }]);
  });

  test('an export whose rows name an unknown block type is refused before anything is written', async () => {
    const bad = path.join(trip.work, 'bad');
    fs.cpSync(trip.first, bad, { recursive: true });
    const file = path.join(bad, 'pages', `${pageId}.json`);
    const page = readJSON(file);
    page.layout[0].blockType = 'nope';
    fs.writeFileSync(file, JSON.stringify(page, null, 2));
    const empty = await startTestServer(withNotes());
    try {
      await expect(importContent(empty.cms, bad)).rejects.toThrow(/nope|blockType/);
      const list = await empty.request('GET', '/pages?depth=0');
      expect(list.body.totalDocs).toBe(0);
      const posts = await empty.request('GET', '/posts?depth=0');
      expect(posts.body.totalDocs).toBe(0);
    } finally {
      await empty.stop();
    }
  });
});

describe('blocks in webhook bodies', () => {
  let t: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = startReceiver();
    const config = websiteConfig() as UserConfig;
    const pages = config.collections!.find((c) => c.slug === 'pages')!;
    const tabs = pages.fields.find((f) => f.type === 'tabs') as any;
    const cta = tabs.tabs[1].fields[0].blocks.find((b: any) => b.slug === 'cta');
    cta.fields.push({ name: 'secretNote', type: 'text', hidden: true });
    t = await startTestServer({
      ...config,
      webhooks: [{ url: receiver.url, collections: ['pages'], events: ['create'] }],
    });
  });
  afterAll(async () => {
    await t?.stop();
    await receiver?.stop();
  });

  test('rows arrive with every locale, ids and types, and without hidden fields inside them', async () => {
    const created = await localAPI(t.cms).create({
      collection: 'pages',
      data: { title: 'Hooked', layout: [{ id: 'row-1', blockType: 'cta', title: 'Hi', secretNote: 'do not send' }] },
      locale: 'en',
    });
    await flushWebhooks(t.cms);
    const [request] = await receiver.waitFor(1);
    expect(request.json).toMatchObject({ event: 'create', collection: 'pages', id: created.id });
    const row = request.json.doc.layout[0];
    expect(row).toMatchObject({ id: 'row-1', blockType: 'cta', title: { en: 'Hi' } });
    expect('secretNote' in row).toBe(false);
    expect(request.body).not.toContain('do not send');
  });
});
