/**
 * The last word of a search matches as a prefix (docs/search.md). Where the engine would merge the entries
 * of every term a prefix covers before the first match (SQLite's FTS5), the prefix is spelled out as the
 * index terms it covers, kept while the collection is unchanged: every covered word still matches, a word a
 * later write adds matches at once (from this process, and behind its back through raw SQL), and a prefix
 * covering many terms is left to the engine. Runs on the engine of the suite's pass.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import { localAPI } from '../../src/local.ts';
import { MAX_SPELLED_TERMS } from '../../src/search/ranked-matches.ts';
import { sqliteSearchSQL } from '../../src/db/sqlite/search-sql.ts';

let t: TestServer;
/** Untyped: the collection comes from the config below. */
let cms: any;

const titles = async (search: string) => {
  const found = await cms.find({ collection: 'notes', search, limit: 100, depth: 0 });
  expect(found.totalDocs).toBe(found.docs.length);
  return found.docs.map((d: { text: string }) => d.text).sort();
};

beforeAll(async () => {
  t = await startTestServer({
    collections: [
      {
        slug: 'notes',
        access: { read: () => true, create: () => true },
        search: { fields: ['text'] },
        fields: [{ name: 'text', type: 'text' }],
      },
    ],
  });
  cms = localAPI(t.cms);
  for (const text of ['cedar grove', 'cedarwood chest', 'Cédars of old', 'cement mixer', 'grove of cedar'])
    await cms.create({ collection: 'notes', data: { text } });
});
afterAll(() => t?.stop());

describe('a prefix', () => {
  test('matches every word it begins, and a whole word as itself', async () => {
    expect(await titles('ced')).toEqual(['Cédars of old', 'cedar grove', 'cedarwood chest', 'grove of cedar']);
    expect(await titles('grove ced')).toEqual(['cedar grove', 'grove of cedar']);
    expect(await titles('cedarw')).toEqual(['cedarwood chest']);
    expect(await titles('ce')).toHaveLength(5);
    expect(await titles('cex')).toEqual([]);
  });

  test('finds a word a write adds right after the same search', async () => {
    expect(await titles('ced')).toHaveLength(4);
    await cms.create({ collection: 'notes', data: { text: 'cedilla' } });
    expect(await titles('ced')).toContain('cedilla');
    expect(await titles('cedi')).toEqual(['cedilla']);
  });

  test('finds a word written behind the process by raw SQL', async () => {
    expect(await titles('cedr')).toEqual([]);
    expect(await titles('ced')).not.toContain('cedrus');
    const { store } = t.cms;
    const now = new Date().toISOString();
    await store.run(`INSERT INTO "notes" ("id", "text", "createdAt", "updatedAt") VALUES (7000, 'cedrus', ?, ?)`, [
      now,
      now,
    ]);
    const row = store.dialect.search.insert(
      '_search_notes',
      { docId: 7000, locale: '', draft: 0, texts: ['cedrus'] },
      0,
    );
    await store.run(row.sql, row.params);
    expect(await titles('cedr')).toEqual(['cedrus']);
    expect(await titles('ced')).toContain('cedrus');
  });

  test('covering more words than are spelled out still finds all of them', async () => {
    const many = Array.from({ length: MAX_SPELLED_TERMS + 3 }, (_, i) => `zeta${String.fromCharCode(97 + i)}`);
    for (const word of many) await cms.create({ collection: 'notes', data: { text: word } });
    expect(await titles('zeta')).toEqual(many);
    expect(await titles('zetab')).toEqual(['zetab']);
  });
});

describe('the SQLite query', () => {
  test('matches a spelled prefix as its whole words, and an unspelled one as a prefix', () => {
    const match = (spelled?: string[]) =>
      sqliteSearchSQL.match(
        '_search_notes',
        1,
        [0],
        [{ words: ['ced'], prefix: true, spelled }],
        { name: '', index: 0 },
        false,
      ).params[0];
    expect(match(['cedar', 'cedarwood'])).toBe('("cedar" OR "cedarwood")');
    expect(match()).toBe('"ced"*');
    expect(match([])).toBe('"ced"*');
  });
  test("the newest documents' sample counts their rows and the rows holding each term", async () => {
    if (t.cms.store.engine !== 'sqlite') return;
    const { store } = t.cms;
    // Documents removed among the newest: the sample is the rows the index holds above a rowid.
    const made = [];
    for (const text of ['pine one', 'pine two', 'larch three', 'pine four', 'larch five'])
      made.push(await cms.create({ collection: 'notes', data: { text } }));
    await cms.delete({ collection: 'notes', id: made[3].id });
    await cms.find({ collection: 'notes', search: 'pine', limit: 1, depth: 0 }); // moves waiting rows in
    const terms = [{ words: ['pine'], prefix: false }];
    const docs = 3;
    const sample = sqliteSearchSQL.sample!('_search_notes', 1, [0], terms, docs);
    const got = await store.get<{ rows: number; h0: number }>(sample.sql, sample.params);
    const from = `(SELECT max("rowid") FROM "_search_notes") - ${docs * 256}`;
    const rows = await store.get<{ n: number }>(`SELECT count(*) AS "n" FROM "_search_notes" WHERE "rowid" > ${from}`);
    const hits = await store.get<{ n: number }>(
      `SELECT count(*) AS "n" FROM "_search_notes" WHERE "_search_notes" MATCH 'pine' AND "rowid" > ${from}`,
    );
    expect(rows!.n).toBeGreaterThan(0);
    expect(got).toEqual({ rows: rows!.n, h0: hits!.n });
  });
});
