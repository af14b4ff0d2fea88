/**
 * A search's exact total of one word or one prefix, after writes of every kind (creates, updates, draft
 * saves, publishes, deletes, per locale). On PostgreSQL it is read from the counts kept per term beside the
 * index (docs/search.md, "Counting a word on PostgreSQL"): the counts equal the index's own after each write,
 * an index made before they were kept gets them at start, and a word they hold is counted without walking
 * its matches. Runs on the engine of the suite's pass.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import { localAPI } from '../../src/local.ts';
import { createCMS } from '../../src/create-cms.ts';
import { ensureSearchIndexes } from '../../src/search/search-index.ts';
import { statementsDuring } from '../support/statements.ts';

let t: TestServer;
/** Untyped: the collection comes from the config below. */
let cms: any;
const postgres = () => t.cms.store.engine === 'postgres';

/** The total of a search of `collection` (limit 1: counted), checked against the documents it lists in all. */
const totalOf = async (api: any, collection: string, search: string, locale?: string) => {
  const found = await api.find({ collection, search, limit: 1, depth: 0, locale });
  const all = await api.find({ collection, search, limit: 100, depth: 0, locale });
  expect(found.totalDocs).toBe(all.docs.length);
  return found.totalDocs as number;
};
const total = (search: string, locale = 'en') => totalOf(cms, 'notes', search, locale);

/** The counts kept per term, and the same counted from the index's rows, where the engine keeps them. */
const keptAndActual = async () => {
  const order = `ORDER BY 1, 2, 3`;
  const kept = await t.cms.store.all(
    `SELECT "locale", "draft", "term", "n" FROM "_search_notes_terms" WHERE "n" <> 0 ${order}`,
  );
  const actual = await t.cms.store.all(
    `SELECT "r"."locale", "r"."draft", "u"."lexeme" COLLATE "C" AS "term", CAST(count(*) AS INTEGER) AS "n" FROM "_search_notes" AS "r", unnest("r"."tsv") AS "u" GROUP BY 1, 2, 3 ${order}`,
  );
  return { kept: kept.map((r: any) => ({ ...r, n: Number(r.n) })), actual };
};

const config = {
  localization: { locales: ['en', 'fr'], defaultLocale: 'en' },
  collections: [
    {
      slug: 'notes',
      access: { read: () => true, create: () => true, update: () => true, delete: () => true },
      drafts: true,
      search: { fields: ['title', 'text'] },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'text', type: 'text', localized: true },
      ],
    },
  ],
};

beforeAll(async () => {
  t = await startTestServer(config as never);
  cms = localAPI(t.cms);
});
afterAll(() => t?.stop());

describe('one word or one prefix, counted exactly', () => {
  test('after creates, updates, draft saves, publishes and deletes, in each locale', async () => {
    const made: any[] = [];
    for (const text of ['cedar one', 'cedar two', 'pine three', 'cedar cedar four', 'cedars five'])
      made.push(await cms.create({ collection: 'notes', data: { title: 'Note', text, _status: 'published' } }));
    await cms.update({ collection: 'notes', id: made[0].id, locale: 'fr', data: { text: 'sapin cedar' } });
    // A quoted word is that word only; the last word unquoted is also a prefix (`cedars`).
    expect(await total('"cedar"')).toBe(3);
    // Two terms start with these: counted from the matches.
    expect(await total('cedar')).toBe(4);
    expect(await total('ceda')).toBe(4);
    expect(await total('pine')).toBe(1);
    expect(await total('sapin', 'fr')).toBe(1);
    expect(await total('sapin')).toBe(0);
    expect(await total('note')).toBe(5);

    // A pending draft changes nothing a live search finds; publishing it does.
    await cms.update({ collection: 'notes', id: made[1].id, data: { text: 'larch two' }, draft: true });
    expect(await total('"cedar"')).toBe(3);
    expect(await total('larch')).toBe(0);
    await cms.update({ collection: 'notes', id: made[1].id, data: { text: 'larch two', _status: 'published' } });
    expect(await total('"cedar"')).toBe(2);
    expect(await total('larch')).toBe(1);

    await cms.delete({ collection: 'notes', id: made[3].id });
    expect(await total('"cedar"')).toBe(1);
    expect(await total('cedars')).toBe(1);
    expect(await total('note')).toBe(4);
    await cms.update({ collection: 'notes', id: made[4].id, data: { text: 'cedar again' } });
    expect(await total('"cedar"')).toBe(2);
    // Only `cedar` starts with it now.
    expect(await total('ceda')).toBe(2);
    if (postgres()) {
      const { kept, actual } = await keptAndActual();
      expect(kept.length).toBeGreaterThan(0);
      expect(kept).toEqual(actual);
    }
  });

  test('a word the counts hold is counted without walking its matches', async () => {
    if (!postgres()) return;
    // Something not only added: a kept total would otherwise serve the search without counting.
    const { docs } = await cms.find({ collection: 'notes', search: 'pine', depth: 0 });
    await cms.update({ collection: 'notes', id: docs[0].id, data: { text: 'pine three again' } });
    /** Whether a search (limit 1: counted) ran a statement counting the rows that match its words. */
    const walked = async (search: string, expected: number) => {
      let found: any;
      const seen = await statementsDuring(t, async () => {
        found = await cms.find({ collection: 'notes', search, limit: 1, depth: 0 });
      });
      expect(found.totalDocs).toBe(expected);
      return seen.some((sql) => sql.includes('count(*)') && sql.includes('@@'));
    };
    expect(await walked('note', 4)).toBe(false);
    expect(await walked('"cedar"', 2)).toBe(false);
    // Two words: only their matches tell how many documents hold both.
    expect(await walked('note cedar', 2)).toBe(true);
  });

  test('an index made before the counts were kept gets them at start', async () => {
    if (!postgres()) return;
    // As such an index is: no counts, no triggers, no function writing them.
    await t.cms.store.exec('DROP TABLE "_search_notes_terms"');
    await t.cms.store.exec('DROP FUNCTION "_search_notes_count_terms"() CASCADE');
    // Opened without touching the indexes, as the migrate commands open it: the matches are counted.
    const other = await createCMS({ config: { ...config, database: t.database } as never, migrate: 'none' });
    try {
      const found = await localAPI(other).find({ collection: 'notes', limit: 1, depth: 0, search: 'note' } as never);
      expect(found.totalDocs).toBe(4);
    } finally {
      await other.close();
    }
    await ensureSearchIndexes(t.cms);
    const { kept, actual } = await keptAndActual();
    expect(kept.length).toBeGreaterThan(0);
    expect(kept).toEqual(actual);
    await cms.create({ collection: 'notes', data: { title: 'Note', text: 'cedar later', _status: 'published' } });
    expect(await total('"cedar"')).toBe(3);
    expect((await keptAndActual()).kept).toEqual((await keptAndActual()).actual);
  });
  test('saves at the same time leave the counts exact', async () => {
    const words = ['cedar', 'pine', 'larch', 'birch', 'maple'];
    const made = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        cms.create({
          collection: 'notes',
          data: { title: 'Many', text: `${words[i % 5]} ${words[(i * 3) % 5]} grove`, _status: 'published' },
        }),
      ),
    );
    const settled = await Promise.allSettled(
      made.flatMap((doc: any, i: number) => [
        cms.update({
          collection: 'notes',
          id: doc.id,
          data: { text: `${words[(i + 2) % 5]} grove` },
          draft: i % 2 === 0,
        }),
        ...(i % 3 === 0 ? [cms.delete({ collection: 'notes', id: doc.id })] : []),
      ]),
    );
    // Only an update of a document deleted meanwhile may fail, as not found: no deadlock, no other error.
    for (const result of settled)
      if (result.status === 'rejected') expect((result.reason as { status?: number }).status).toBe(404);
    const left = (await cms.find({ collection: 'notes', where: { title: { equals: 'Many' } }, limit: 100 })).totalDocs;
    expect(await total('grove')).toBe(left);
    if (postgres()) {
      const { kept, actual } = await keptAndActual();
      expect(kept).toEqual(actual);
    }
  });
});

describe('one locale and no drafts', () => {
  let plain: TestServer;
  let local: any;
  const plainTotal = (search: string) => totalOf(local, 'plain', search);
  let churn = 0;
  /** Whether a search (limit 1: counted) ran the statement counting every document that matches its words. */
  const walked = async (search: string, expected: number) => {
    // A document's text rewritten first: a total kept since an earlier search would otherwise serve it.
    await local.update({ collection: 'plain', id: made[0].id, data: { text: `larch churn ${churn++}` } });
    let found: any;
    const seen = await statementsDuring(plain, async () => {
      found = await local.find({ collection: 'plain', search, limit: 1, depth: 0 });
    });
    expect(found.totalDocs).toBe(expected);
    return seen.some((sql) => /CAST\(count\(\*\) AS INTEGER\) FROM \(SELECT .*(MATCH|@@)/.test(sql));
  };
  const made: any[] = [];

  beforeAll(async () => {
    plain = await startTestServer({
      collections: [
        {
          slug: 'plain',
          access: { read: () => true, create: () => true, update: () => true, delete: () => true },
          search: { fields: ['title', 'text'] },
          fields: [
            { name: 'title', type: 'text' },
            { name: 'text', type: 'text' },
          ],
        },
      ],
    } as never);
    local = localAPI(plain.cms);
  });
  afterAll(() => plain?.stop());

  test('a word and a prefix of one term are counted exactly after every kind of write', async () => {
    for (const text of ['cedar one', 'cedar two', 'pine three', 'Cedar cedar four', 'cedars five', 'café six'])
      made.push(await local.create({ collection: 'plain', data: { title: 'Note', text } }));
    expect(await plainTotal('"cedar"')).toBe(3);
    expect(await plainTotal('cedar')).toBe(4);
    expect(await plainTotal('"pine"')).toBe(1);
    expect(await plainTotal('"cafe"')).toBe(1);
    expect(await plainTotal('"café"')).toBe(1);
    expect(await plainTotal('"larch"')).toBe(0);
    await local.update({ collection: 'plain', id: made[0].id, data: { text: 'larch one' } });
    await local.delete({ collection: 'plain', id: made[3].id });
    expect(await plainTotal('"cedar"')).toBe(1);
    expect(await plainTotal('"larch"')).toBe(1);
    expect(await plainTotal('ceda')).toBe(2);
    expect(await plainTotal('note')).toBe(5);
    await local.update({ collection: 'plain', id: made[4].id, data: { text: 'pine again' } });
    // Only `cedar` starts with it now.
    expect(await plainTotal('ceda')).toBe(1);
    expect(await plainTotal('"pine"')).toBe(2);
  });

  test('a word is counted without walking its matches', async () => {
    expect(await walked('"pine"', 2)).toBe(false);
    expect(await walked('"nowhere"', 0)).toBe(false);
    // A prefix of one term only: counted as that term.
    expect(await walked('ceda', 1)).toBe(false);
    // Two words, or a prefix several terms start with: only their matches tell.
    expect(await walked('note pine', 2)).toBe(true);
    await local.create({ collection: 'plain', data: { title: 'Note', text: 'cedars again' } });
    expect(await walked('ceda', 2)).toBe(true);
  });
});
