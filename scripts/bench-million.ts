/**
 * Reads at a million documents (docs/benchmarks.md, "A million documents"), response cache off, on either
 * engine. The posts are seeded once into a database kept between runs (`--dir`; on PostgreSQL a database
 * named `--db`): the admin and the first post through the Local API, the rest by raw SQL in the stored shape
 * the Local API writes (the same columns and value kinds, the full-text rows through the engine's own
 * statement), which the script checks by reading a raw post and the Local API's post back and comparing
 * their keys. Then each case is called `--runs` times in-process through the Local API, p50/p95.
 *
 *   bun scripts/bench-million.ts [--count 1000000] [--runs 200] [--engine sqlite|postgres] [--dir /tmp/cms-million]
 *
 * The cases "after a create", "after an update" and "after a removal" write a post per call: give them a
 * copy of the database (`--dir`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import { SQL } from 'bun';
import { getCMS } from '../src/local.ts';
import { manualClock } from '../src/clock.ts';
import { createContext } from '../src/operation-context.ts';
import { count, find, type FindArgs } from '../src/operations/find.ts';
import { sqliteSearchSQL } from '../src/db/sqlite/search-sql.ts';
import { fold } from '../src/db/search-sql.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '200' },
    engine: { type: 'string', default: 'sqlite' },
    dir: { type: 'string', default: '/tmp/cms-million' },
    db: { type: 'string', default: 'cms_million' },
    cases: { type: 'string', default: '' },
  },
});
const COUNT = Number(values.count);
const RUNS = Number(values.runs);
const engine = values.engine === 'postgres' ? 'postgres' : 'sqlite';
const dir = path.resolve(`${values.dir}${engine === 'postgres' ? '-pg' : ''}-${COUNT}`);
mkdirSync(dir, { recursive: true });

/**
 * The body: 40 of 33 common words (each in 49% to 95% of the documents), and two tokens of a list whose
 * pseudo-random pick is skewed (kept as it is: the seeded file must stay the one measured). The title,
 * `Post <n>`, makes the selective search: a number of four digits, as a prefix, matches about 111 posts.
 */
const COMMON = (
  'harbour lantern meadow copper violet thunder orchard granite willow ember falcon river quartz ' +
  'saffron glacier marble canyon velvet beacon cedar prairie cobalt dune juniper nectar pebble summit tundra ' +
  'café élan naïve façade über'
).split(' ');
const RARE = Array.from({ length: 20_000 }, (_, i) => `zq${i.toString(36)}x`);
const bodyOf = (i: number) => {
  let seed = i * 2654435761;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const words = Array.from({ length: 40 }, () => COMMON[next() % COMMON.length]);
  words.splice(next() % 40, 0, RARE[next() % RARE.length]);
  words.splice(next() % 40, 0, RARE[next() % RARE.length]);
  return words.join(' ');
};
const START = Date.parse('2026-01-01T00:00:00Z');
const postOf = (i: number) => ({
  title: `Post ${i}`,
  body: bodyOf(i),
  status: i % 2 ? 'published' : 'draft',
  views: i,
  at: new Date(START + i * 1000).toISOString(),
});

let database: string = path.join(dir, 'cms.db');
if (engine === 'postgres') {
  const base = process.env.CMS_TEST_POSTGRES_URL;
  if (!base) throw new Error('Set CMS_TEST_POSTGRES_URL.');
  const admin = new SQL(base);
  const [exists] = await admin`SELECT 1 AS "x" FROM pg_database WHERE datname = ${values.db}`;
  if (!exists) await admin.unsafe(`CREATE DATABASE "${values.db}"`);
  await admin.close();
  const url = new URL(base);
  url.pathname = `/${values.db}`;
  database = url.toString();
}
const configFile = path.join(dir, 'cms.config.ts');
writeFileSync(
  configFile,
  `export default {
  database: ${JSON.stringify(database)},
  cache: false,
  collections: [{
    slug: 'posts',
    access: { read: () => true },
    indexes: [{ fields: ['status', 'createdAt'] }],
    search: { fields: ['title', 'body'] },
    fields: [
      { name: 'title', type: 'text', required: true },
      { name: 'body', type: 'textarea' },
      { name: 'status', type: 'select', options: ['draft', 'published'] },
      { name: 'views', type: 'number' },
    ],
  }],
};
`,
);
const quiet = { info() {}, warn: console.warn, error: console.error };
const open = (at = START) => getCMS({ config: configFile, log: quiet, clock: manualClock(at) });

/** How many posts are stored; seeds the missing ones (the first through the Local API). */
async function seed(): Promise<void> {
  let cms = await open();
  let have = (await cms.count({ collection: 'posts' })).totalDocs;
  if (have === 0) {
    await cms.create({ collection: 'users', data: { email: 'bench@example.com', password: 'password123' } });
    const p = postOf(0);
    await cms.create({ collection: 'posts', data: { title: p.title, body: p.body, status: p.status, views: p.views } });
    have = 1;
  }
  await cms.close();
  if (have >= COUNT) return;
  const started = performance.now();
  if (engine === 'sqlite') seedSqlite(have);
  else await seedPostgres(have);
  console.log(`seeded ${COUNT - have} posts by SQL in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // The stored shape: a raw post reads back with the same keys and value kinds as the Local API's.
  cms = await open();
  const [first, last] = await Promise.all([
    cms.findByID({ collection: 'posts', id: 1 }),
    cms.findByID({ collection: 'posts', id: COUNT }),
  ]);
  const kinds = (d: Record<string, unknown>) =>
    JSON.stringify(
      Object.entries(d)
        .map(([k, v]) => [k, typeof v])
        .sort(),
    );
  if (kinds(first) !== kinds(last)) throw new Error(`shape differs:\n${kinds(first)}\n${kinds(last)}`);
  await cms.close();
}

function seedSqlite(have: number): void {
  const db = new Database(database);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = OFF');
  const columns = Object.keys(db.query('SELECT * FROM "posts" WHERE "id" = 1').get() as object);
  const insert = db.prepare(
    `INSERT INTO "posts" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
  );
  const example = db.query('SELECT * FROM "posts" WHERE "id" = 1').get() as Record<string, unknown>;
  const fts = sqliteSearchSQL.insert('_search_posts', { docId: 0, locale: '', draft: 0, texts: ['', ''] }, 0).sql;
  const index = db.prepare(fts);
  const batch = db.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const p = postOf(i);
      const id = i + 1;
      const row: Record<string, unknown> = {
        ...example,
        id,
        title: p.title,
        body: p.body,
        status: p.status,
        views: p.views,
        createdAt: p.at,
        updatedAt: p.at,
      };
      insert.run(...(columns.map((c) => row[c]) as never[]));
      index.run(id * 256, '', 0, p.title, p.body);
    }
  });
  for (let i = have; i < COUNT; i += 10_000) {
    batch(i, Math.min(COUNT, i + 10_000));
    process.stdout.write(`\rseeding ${Math.min(COUNT, i + 10_000)}/${COUNT}`);
  }
  process.stdout.write('\n');
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  db.close();
}

async function seedPostgres(have: number): Promise<void> {
  const db = new SQL(database);
  const [example] = await db`SELECT * FROM "posts" WHERE "id" = 1`;
  for (let i = have; i < COUNT; i += 5000) {
    const to = Math.min(COUNT, i + 5000);
    const posts = Array.from({ length: to - i }, (_, k) => ({ id: i + k + 1, ...postOf(i + k) }));
    await db.begin(async (tx) => {
      await tx`INSERT INTO "posts" ("id", "title", "body", "status", "views", "createdAt", "updatedAt")
        SELECT * FROM unnest(${posts.map((p) => p.id)}::int[], ${posts.map((p) => p.title)}::text[],
          ${posts.map((p) => p.body)}::text[], ${posts.map((p) => p.status)}::text[], ${posts.map((p) => p.views)}::float8[],
          ${posts.map((p) => p.at)}::timestamptz[], ${posts.map((p) => p.at)}::timestamptz[])`;
      await tx`INSERT INTO "_search_posts" ("docId", "locale", "draft", "f0", "f1", "tsv")
        SELECT d, '', 0, t, b, to_tsvector('simple', t || ' ' || b) FROM unnest(${posts.map((p) => p.id)}::int[],
          ${posts.map((p) => fold(p.title))}::text[], ${posts.map((p) => fold(p.body))}::text[]) AS x(d, t, b)`;
    });
    process.stdout.write(`\rseeding ${to}/${COUNT}`);
  }
  process.stdout.write('\n');
  void example;
  // Ids come from `_cms_ids` (the Local API's counter): move it past the rows written here.
  await db.unsafe(
    `INSERT INTO "_cms_ids" ("table", "last") VALUES ('posts', ${COUNT}) ON CONFLICT ("table") DO UPDATE SET "last" = excluded."last"`,
  );
  // VACUUM as well: it sets the visibility map, without which a count cannot skip the table (autovacuum
  // would, some time later).
  await db.unsafe('VACUUM ANALYZE');
  await db.close();
}

await seed();

// The clock stands after the seeded posts: a post a case creates is the newest, as on a live site.
const cms = await open(START + COUNT * 1000);
const ctx = createContext(cms.cms, { overrideAccess: true });
const pct = (xs: number[], p: number) =>
  xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
let n = 0;
/** The posts the removal case removes: from a place of its own in each run (a copy serves several runs). */
let removed = 100_000 + (Date.now() % 400_000);
const common = () => COMMON[n++ % COMMON.length];
/** A number of four digits: as a prefix of the titles' numbers, about 111 posts hold it. */
const selective = () => String(1000 + ((n++ * 7919) % 9000));
const published = { status: { equals: 'published' } };
const list = (args: Omit<FindArgs, 'collection'>) => find(ctx, { collection: 'posts', depth: 0, ...args });
const cases: Record<string, () => Promise<{ totalDocs: number }>> = {
  'list of 20 published, newest first, with its total': () => list({ where: published, sort: '-createdAt', limit: 20 }),
  'page 10,000 of 20 (same list)': () => list({ where: published, sort: '-createdAt', limit: 20, page: 10_000 }),
  'count of all posts': () => count(ctx, { collection: 'posts' }),
  'search, a selective word (limit 10)': () => list({ search: selective(), limit: 10 }),
  'search, a common word and a prefix (limit 10)': () =>
    list({ search: `${common()} ${common().slice(0, 3)}`, limit: 10 }),
  'search, a common word (limit 10)': () => list({ search: common(), limit: 10 }),
  // One common word asked again and again: its total kept, what is left is ranking its newest matches.
  'search, the same common word again (limit 10)': () => list({ search: 'harbour', limit: 10 }),
  // The first list after a write: a post created, then the list with its total (both timed).
  'list of 20 after a create (same list)': async () => {
    const p = postOf(n++);
    await cms.create({ collection: 'posts', data: { title: p.title, body: p.body, status: p.status, views: p.views } });
    return list({ where: published, sort: '-createdAt', limit: 20 });
  },
  // The first deep page after a write: a post created, then page 10,000 (both timed).
  'page 10,000 after a create (same list)': async () => {
    const p = postOf(n++);
    await cms.create({ collection: 'posts', data: { title: p.title, body: p.body, status: p.status, views: p.views } });
    return list({ where: published, sort: '-createdAt', limit: 20, page: 10_000 });
  },
  // The first list after an update that moves a post across the filter (an older post published or
  // unpublished in turn), then after a removal of one: the write and the list both timed.
  'list of 20 after an update (same list)': async () => {
    const id = 1000 + n++;
    const seeded = postOf(id - 1).status;
    await cms.update({ collection: 'posts', id, data: { status: seeded === 'published' ? 'draft' : 'published' } });
    return list({ where: published, sort: '-createdAt', limit: 20 });
  },
  'list of 20 after a removal (same list)': async () => {
    await cms.delete({ collection: 'posts', id: removed++ });
    return list({ where: published, sort: '-createdAt', limit: 20 });
  },
  // The first search after a write: a post created, then the same common word searched (both timed).
  'search, a common word after a create (limit 10)': async () => {
    const p = postOf(n);
    await cms.create({ collection: 'posts', data: { title: p.title, body: p.body, status: p.status, views: p.views } });
    return list({ search: COMMON[n % 3], limit: 10 });
  },
  // The first deep page after an edit of an older post that leaves it in its place (its title).
  'page 10,000 after an edit (same list)': async () => {
    const id = 2000 + n++;
    await cms.update({ collection: 'posts', id, data: { title: `Post ${id - 1} (edited)` } });
    return list({ where: published, sort: '-createdAt', limit: 20, page: 10_000 });
  },
  // The writes of the cases after one, alone (last, so that the lists before are kept as in those cases):
  // what the list itself costs there is the difference.
  'a create alone': async () => {
    const p = postOf(n++);
    await cms.create({ collection: 'posts', data: { title: p.title, body: p.body, status: p.status, views: p.views } });
    return { totalDocs: 0 };
  },
  'an update alone': async () => {
    const id = 1000 + n++;
    await cms.update({
      collection: 'posts',
      id,
      data: { status: postOf(id - 1).status === 'published' ? 'draft' : 'published' },
    });
    return { totalDocs: 0 };
  },
};
const only = values.cases ? values.cases.split(',') : null;
console.log(`engine ${engine}, ${COUNT} posts, cache off, ${RUNS} calls per case in process (the list operation)`);
console.log('| case | p50 | p95 | CPU per call, mean | totalDocs (last) |\n|---|---|---|---|---|');
for (const [name, run] of Object.entries(cases)) {
  if (only && !only.some((o) => name.includes(o))) continue;
  const ms: number[] = [];
  let total = 0;
  for (let i = 0; i < 3; i++) await run();
  const cpu = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    total = (await run()).totalDocs;
    ms.push(performance.now() - t);
  }
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000 / RUNS;
  console.log(
    `| ${name} | ${pct(ms, 50).toFixed(2)} ms | ${pct(ms, 95).toFixed(2)} ms | ${cpuMs.toFixed(2)} ms | ${total} |`,
  );
}
await cms.close();
