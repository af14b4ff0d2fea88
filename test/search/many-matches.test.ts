/**
 * A search matching more documents than are ranked (docs/search.md, "Ranking the newest matches"): the
 * newest RANKED_MATCHES matches come best first, every older match follows newest first, the pages together
 * hold every match once, the total is exact, and a read filter narrows the matches before they are ranked.
 * Deep pages of an ordinary list (past DEEP_OFFSET, read by id first) hold the rows OFFSET gives. Runs on
 * the engine of the suite's pass.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import { localAPI } from '../../src/local.ts';
import { RANKED_MATCHES } from '../../src/search/ranked-matches.ts';
import { DEEP_OFFSET } from '../../src/db/documents.ts';

const COUNT = RANKED_MATCHES + 60;
let t: TestServer;
let strongOld: number;
let strongNew: number;

beforeAll(async () => {
  t = await startTestServer({
    collections: [
      {
        slug: 'notes',
        search: { fields: ['text'] },
        access: { read: ({ user }) => (user ? true : { kind: { equals: 'open' } }) },
        fields: [
          { name: 'text', type: 'text' },
          { name: 'kind', type: 'text' },
          { name: 'rank', type: 'number' },
        ],
      },
    ],
  });
  const cms = localAPI(t.cms);
  // A short text repeating the word scores best; the first one is older than every ranked match.
  strongOld = (await cms.create({ collection: 'notes', data: { text: 'apple apple apple', kind: 'open', rank: 0 } }))
    .id as number;
  for (let i = 1; i < COUNT; i++)
    await cms.create({
      collection: 'notes',
      data: {
        text: `apple and many other words about orchards number ${i}`,
        kind: i % 3 ? 'open' : 'closed',
        rank: i % 7,
      },
    });
  strongNew = (await cms.create({ collection: 'notes', data: { text: 'apple apple apple', kind: 'open', rank: 0 } }))
    .id as number;
});
afterAll(() => t?.stop());

const search = (query: string, token?: string) => t.request('GET', `/notes?${query}`, token ? { token } : {});

test('the newest matches are ranked, older ones follow newest first, and the pages hold every match once', async () => {
  const admin = await t.user('admin');
  const seen: number[] = [];
  for (let page = 1; ; page++) {
    const res = await search(`search=apple&limit=100&page=${page}&depth=0`, admin.token);
    expect(res.status).toBe(200);
    expect(res.body.totalDocs).toBe(COUNT + 1);
    seen.push(...res.body.docs.map((d: { id: number }) => d.id));
    if (!res.body.hasNextPage) break;
  }
  expect(seen.length).toBe(COUNT + 1);
  expect(new Set(seen).size).toBe(COUNT + 1);
  // The best of the ranked part first; the old strong match after it, where its age puts it: last.
  expect(seen[0]).toBe(strongNew);
  expect(seen.at(-1)).toBe(strongOld);
  const rest = seen.slice(RANKED_MATCHES);
  expect(rest).toEqual([...rest].sort((a, b) => b - a));
});

test('a page across the end of the ranked part joins both parts', async () => {
  const admin = await t.user('admin');
  const whole = await search('search=apple&pagination=false&depth=0', admin.token);
  const ids = whole.body.docs.map((d: { id: number }) => d.id);
  const across = await search(`search=apple&limit=40&page=${RANKED_MATCHES / 40 + 1}&depth=0`, admin.token);
  expect(across.body.docs.map((d: { id: number }) => d.id)).toEqual(ids.slice(RANKED_MATCHES, RANKED_MATCHES + 40));
  const straddling = await search('search=apple&limit=30&page=34&depth=0', admin.token);
  expect(straddling.body.docs.map((d: { id: number }) => d.id)).toEqual(ids.slice(990, 1020));
});

test('the read filter narrows the matches before they are ranked, and the total is theirs', async () => {
  const anonymous = await search('search=apple&limit=100&depth=0');
  const open = (await search('where[kind][equals]=open&limit=1&depth=0')).body.totalDocs;
  expect(anonymous.body.totalDocs).toBe(open);
  expect(anonymous.body.docs.every((d: { kind: string }) => d.kind === 'open')).toBe(true);
  // Fewer readable matches than are ranked: all of them are, the old strong match too (ties by id).
  expect(anonymous.body.docs.slice(0, 2).map((d: { id: number }) => d.id)).toEqual([strongOld, strongNew]);
});

test('a deep page of a list holds the rows an OFFSET gives, ties and all', async () => {
  const admin = await t.user('admin');
  const whole = await search('sort=-rank&pagination=false&depth=0', admin.token);
  const ids = whole.body.docs.map((d: { id: number }) => d.id);
  const page = DEEP_OFFSET / 20 + 2;
  const deep = await search(`sort=-rank&limit=20&page=${page}&depth=0`, admin.token);
  expect(deep.body.docs.map((d: { id: number }) => d.id)).toEqual(ids.slice((page - 1) * 20, page * 20));
  const where = 'where[kind][exists]=true&sort=rank';
  const filtered = await search(`${where}&limit=10&page=${DEEP_OFFSET / 10 + 1}&depth=0`, admin.token);
  const all = (await search(`${where}&pagination=false&depth=0`, admin.token)).body.docs;
  expect(filtered.body.docs.length).toBe(10);
  expect(filtered.body.docs.map((d: { id: number }) => d.id)).toEqual(
    all.slice(DEEP_OFFSET, DEEP_OFFSET + 10).map((d: { id: number }) => d.id),
  );
});

test('a rare term is found through the index, common ones by the newest documents, with the same matches', async () => {
  const admin = await t.user('admin');
  const store = t.cms.store as unknown as { all: (sql: string, params?: unknown[]) => Promise<unknown[]> };
  const all = store.all;
  const ranked: string[] = [];
  store.all = (sql, params) => {
    if (sql.includes('ts_rank')) ranked.push(sql);
    return all.call(t.cms.store, sql, params);
  };
  try {
    // One document holds `777`; every one holds `apple`.
    const rare = await search('search=number%20777&depth=0', admin.token);
    expect(rare.body.docs.map((d: { text: string }) => d.text)).toEqual([
      'apple and many other words about orchards number 777',
    ]);
    const rarePlan = ranked.splice(0);
    const common = await search('search=apple&limit=5&depth=0', admin.token);
    expect(common.body.totalDocs).toBe(COUNT + 1);
    expect(common.body.docs.map((d: { id: number }) => d.id)).toContain(strongNew);
    const commonPlan = ranked.splice(0);
    // PostgreSQL reads the term counts to choose (SQLite's FTS5 plans a match itself).
    if (t.cms.store.engine === 'postgres') {
      expect(rarePlan.some((sql) => sql.includes('"docId" + 0 DESC'))).toBe(true);
      expect(commonPlan.some((sql) => sql.includes(') IS TRUE'))).toBe(true);
    }
  } finally {
    store.all = all;
  }
});

test("a plan made once for every value parses the search's query once, not per row", async () => {
  if (t.cms.store.engine !== 'postgres') return;
  const admin = await t.user('admin');
  const store = t.cms.store as unknown as Record<string, (sql: string, params?: unknown[]) => Promise<unknown>>;
  const originals = { all: store.all, get: store.get };
  const statements: [string, unknown[]][] = [];
  for (const name of ['all', 'get'] as const)
    store[name] = (sql, params) => {
      if (sql.includes('to_tsquery')) statements.push([sql, params ?? []]);
      return originals[name].call(t.cms.store, sql, params);
    };
  try {
    // Two words: counted from the matches, then the newest ranked; the second word also a prefix.
    expect((await search('search=apple%20orchards&limit=5&depth=0', admin.token)).status).toBe(200);
  } finally {
    Object.assign(store, originals);
  }
  expect(statements.some(([sql]) => sql.includes('count(*)'))).toBe(true);
  expect(statements.some(([sql]) => sql.includes('ts_rank'))).toBe(true);
  // What PostgreSQL runs once a reused statement gets its plan for every value: a query written in place
  // would be parsed again in each row's test (`Filter`, `Recheck Cond`) and rank (`Output`).
  const sql = new Bun.SQL(t.database, { max: 1 });
  try {
    await sql.unsafe('SET plan_cache_mode = force_generic_plan');
    for (const [i, [text, params]] of statements.entries()) {
      let n = 0;
      await sql.unsafe(`PREPARE p${i} AS ${text.replace(/\?/g, () => `$${++n}`)}`);
      const literal = (v: unknown) => (typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`);
      const plan = (await sql.unsafe(`EXPLAIN (VERBOSE, COSTS OFF) EXECUTE p${i}(${params.map(literal).join(', ')})`))
        .map((row: Record<string, string>) => row['QUERY PLAN'])
        .filter((line: string) => line.includes('to_tsquery'));
      // Only the subplans computing the query hold it (`Output: to_tsquery(…)`), evaluated once.
      expect(plan.length).toBeGreaterThan(0);
      for (const line of plan) expect(line.trim()).toMatch(/^Output: to_tsquery\(/);
    }
  } finally {
    await sql.close();
  }
});
