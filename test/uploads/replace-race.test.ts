/**
 * File-changing writes of one media document, at the same time (docs/media.md "Replacing the file"):
 * concurrent replacements and concurrent reframes each run in the document's turn, so whichever wins,
 * no stored file is left that the document does not name (nothing to wait an hour for the sweep); and a
 * crop keeps only its four numbers, whatever else a PATCH puts in it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import { mediaFileKeys } from '../../src/uploads/media-files.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { filesIn, form, png } from '../support/media-fixtures.ts';

const CONCURRENT = 6;

describe('one media document, written at once by several requests', () => {
  let t: TestServer;
  let token: string;
  let doc: Record<string, any>;
  beforeAll(async () => {
    t = await startTestServer({ upload: { imageSizes: [{ name: 'thumb', width: 40, height: 40 }] } });
    token = (await t.session('admin')).token;
    const res = await t.request('POST', '/media', { token, body: form(await png(120, 80), 'first.png') });
    expect(res.status).toBe(201);
    doc = res.body.doc;
  });
  afterAll(() => t?.stop());

  /** Stored files the document does not name: what would wait for the sweep. */
  const orphans = async () => {
    const current = (await t.request('GET', `/media/${doc.id}?depth=0`, { token })).body;
    const named = new Set(mediaFileKeys(current));
    return filesIn(path.join(t.dir, 'uploads')).filter((file) => !file.startsWith('.') && !named.has(file));
  };

  test(`${CONCURRENT} concurrent file replacements leave only the winner's files`, async () => {
    const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff', '#ff00ff'];
    const bodies = await Promise.all(
      colours.slice(0, CONCURRENT).map(async (c, i) => form(await png(100 + i, 60, c), `replacement-${i}.png`)),
    );
    const statuses = await Promise.all(
      bodies.map(async (body) => (await t.request('PATCH', `/media/${doc.id}`, { token, body })).status),
    );
    expect(statuses).toEqual(Array(CONCURRENT).fill(200));
    expect(await orphans()).toEqual([]);
  });

  test(`${CONCURRENT} concurrent reframes leave only the last frame's sizes`, async () => {
    const statuses = await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, i) => {
        const body = { focalX: 10 + i * 10, focalY: 50 };
        return (await t.request('PATCH', `/media/${doc.id}`, { token, body })).status;
      }),
    );
    expect(statuses).toEqual(Array(CONCURRENT).fill(200));
    expect(await orphans()).toEqual([]);
  });

  test('a crop keeps its four numbers and nothing else', async () => {
    const crop = { x: 10, y: 0, width: 50, height: 100, pad: 'x'.repeat(100_000), nested: { deep: true } };
    const res = await t.request('PATCH', `/media/${doc.id}`, { token, body: { crop } });
    expect(res.status).toBe(200);
    expect(res.body.doc.crop).toEqual({ x: 10, y: 0, width: 50, height: 100 });
    const stored = await t.cms.store.get<{ crop: unknown }>('SELECT "crop" FROM "media" WHERE "id" = ?', [doc.id]);
    expect(JSON.stringify(stored?.crop).length).toBeLessThan(200);
    expect(await orphans()).toEqual([]);
  });
});
