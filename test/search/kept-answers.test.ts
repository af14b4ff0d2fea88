/**
 * A search's exact total, and on SQLite the terms a prefix is spelled as, are kept across writes that only
 * add documents (docs/search.md, "How a search is answered"): after a create only the documents added since
 * are counted and looked at, and every write that removes or rewrites index rows, or adds a document below
 * the newest one, makes the next search count again. Runs on the engine of the suite's pass.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import { localAPI } from '../../src/local.ts';
import { indexDocument, reindexCollection } from '../../src/search/search-index.ts';

let t: TestServer;
/** Untyped: the collection comes from the config below. */
let cms: any;
/** The count statements run since the last call, with their parameters. */
let counted: { sql: string; params: unknown[] }[] = [];

const total = async (search: string) => {
  const found = await cms.find({ collection: 'notes', search, limit: 1, depth: 0 });
  const all = await cms.find({ collection: 'notes', search, limit: 100, depth: 0 });
  expect(found.totalDocs).toBe(all.docs.length);
  return found.totalDocs as number;
};
/**
 * The statements counting a search's matches, or reading the term counts that answer for them (PostgreSQL;
 * not the look at them that tells whether a term is rare, which counts nothing).
 */
const counts = () => {
  const seen = counted.filter(
    (c) =>
      (c.sql.includes('CAST(count(*) AS INTEGER)') || c.sql.includes('_search_notes_terms')) &&
      c.sql.includes('_search_notes') &&
      !c.sql.includes('AS "rare"'),
  );
  counted = [];
  return seen;
};
/** Whether a count statement walks only documents above an id (the engines spell the bound differently). */
const bounded = (sql: string) => sql.includes('"rowid" >= ?') || sql.includes('"docId" > ?');

beforeAll(async () => {
  t = await startTestServer({
    collections: [
      {
        slug: 'notes',
        access: { read: () => true, create: () => true, update: () => true, delete: () => true },
        search: { fields: ['text'] },
        fields: [{ name: 'text', type: 'text' }],
      },
    ],
  });
  cms = localAPI(t.cms);
  for (const text of ['cedar one', 'cedar two', 'pine three', 'cedar four'])
    await cms.create({ collection: 'notes', data: { text } });
  const store = t.cms.store as any;
  const get = store.get.bind(store);
  store.get = (sql: string, params: unknown[] = []) => {
    counted.push({ sql, params });
    return get(sql, params);
  };
  const all = store.all.bind(store);
  store.all = (sql: string, params: unknown[] = []) => {
    counted.push({ sql, params });
    return all(sql, params);
  };
});
afterAll(() => t?.stop());

describe('a kept search total', () => {
  test('after creates, counts only the documents added since', async () => {
    expect(await total('cedar')).toBe(3);
    counts();
    await cms.create({ collection: 'notes', data: { text: 'cedar five' } });
    await cms.create({ collection: 'notes', data: { text: 'birch six' } });
    const found = await cms.find({ collection: 'notes', search: 'cedar', limit: 1, depth: 0 });
    expect(found.totalDocs).toBe(4);
    const seen = counts();
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((c) => bounded(c.sql))).toBe(true);
    expect(await total('cedar')).toBe(4);
  });

  test('an update that removes the word, and a delete, are counted again in full', async () => {
    expect(await total('cedar')).toBe(4);
    const { docs } = await cms.find({ collection: 'notes', where: { text: { equals: 'cedar two' } }, depth: 0 });
    await cms.update({ collection: 'notes', id: docs[0].id, data: { text: 'larch two' } });
    counts();
    expect(await total('cedar')).toBe(3);
    expect(counts().some((c) => !bounded(c.sql))).toBe(true);
    const one = await cms.find({ collection: 'notes', where: { text: { equals: 'cedar one' } }, depth: 0 });
    await cms.delete({ collection: 'notes', id: one.docs[0].id });
    expect(await total('cedar')).toBe(2);
    await cms.update({ collection: 'notes', id: docs[0].id, data: { text: 'cedar again' } });
    expect(await total('cedar')).toBe(3);
  });

  test('rows added below the newest document, and a rebuild, are counted again in full', async () => {
    expect(await total('cedar')).toBe(3);
    const collection = t.cms.config.collectionsBySlug.get('notes')!;
    const now = new Date().toISOString();
    await t.cms.store.run(
      `INSERT INTO "notes" ("id", "text", "createdAt", "updatedAt") VALUES (-5, 'cedar low', ?, ?)`,
      [now, now],
    );
    await indexDocument(t.cms, t.cms.store, collection, -5, { id: -5, text: 'cedar low' }, true);
    expect(await total('cedar')).toBe(4);
    await t.cms.store.run(`DELETE FROM "notes" WHERE "id" = -5`);
    await reindexCollection(t.cms, collection);
    expect(await total('cedar')).toBe(3);
  });

  test('a prefix spelled out is looked for only in the documents added since', async () => {
    // Only SQLite spells a prefix out (PostgreSQL walks it in the index).
    const spelling = t.cms.store.dialect.search.prefixTerms?.('_search_notes');
    const titles = async (search: string) =>
      (await cms.find({ collection: 'notes', search, limit: 100, depth: 0 })).docs.map((d: any) => d.text).sort();
    const looked = () => counted.filter((c) => c.sql === spelling?.next).length;
    expect(await titles('ced')).toEqual(['cedar again', 'cedar five', 'cedar four']);
    await cms.create({ collection: 'notes', data: { text: 'cedar seven and pine' } });
    counted = [];
    expect(await titles('ced')).toEqual(['cedar again', 'cedar five', 'cedar four', 'cedar seven and pine']);
    if (spelling) expect(looked()).toBe(0);
    // Text beyond ASCII is split by the engine itself: no word under the prefix it lacks, nothing spelled.
    await cms.create({ collection: 'notes', data: { text: 'Café “cedar” — crème' } });
    counted = [];
    expect(await titles('ced')).toEqual([
      'Café “cedar” — crème',
      'cedar again',
      'cedar five',
      'cedar four',
      'cedar seven and pine',
    ]);
    if (spelling) expect(looked()).toBe(0);
    // A new word under the prefix, and a word only the engine folds exactly, are spelled again.
    await cms.create({ collection: 'notes', data: { text: 'cedilla' } });
    expect(await titles('cedi')).toEqual(['cedilla']);
    expect(await titles('ced')).toContain('cedilla');
    await cms.create({ collection: 'notes', data: { text: 'Cédrat' } });
    counted = [];
    expect(await titles('ced')).toContain('Cédrat');
    if (spelling) expect(looked()).toBeGreaterThan(0);
  });
  test('prefixes looked for at the same time each find the words added under them', async () => {
    const prefixes = ['cer', 'cir', 'cor', 'cur', 'car'];
    const words = ['cerise', 'cirque', 'corail', 'curé', 'carré'];
    // Each prefix spelled once (as one word), then a document beyond ASCII holding a new word under each.
    await cms.create({ collection: 'notes', data: { text: 'cerf cire corde cure carte' } });
    for (const prefix of prefixes) await cms.find({ collection: 'notes', search: prefix, limit: 1, depth: 0 });
    // The store's reads are promises: here each answers one to three turns later, as a driver's might, so
    // that the searches' statements interleave.
    const store = t.cms.store as unknown as { all: (...args: unknown[]) => Promise<unknown> };
    const all = store.all;
    let calls = 0;
    store.all = async (...args) => {
      for (let turns = 1 + (calls++ % 3); turns > 0; turns--) await new Promise((resolve) => setImmediate(resolve));
      return all.apply(t.cms.store, args);
    };
    try {
      for (let round = 0; round < 5; round++) {
        const text = words.map((w) => `${w}${round}`).join(' «et» ');
        await cms.create({ collection: 'notes', data: { text } });
        const found = await Promise.all(
          prefixes.map((prefix) => cms.find({ collection: 'notes', search: prefix, limit: 100, depth: 0 })),
        );
        for (const result of found) expect(result.docs.map((d: any) => d.text)).toContain(text);
      }
    } finally {
      store.all = all;
    }
  });
});
