/**
 * `bun run bench`: the CMS (dist/cms, else from source) against a bare Bun.serve over the same SQLite file,
 * in one run: list (filter + sort + count), read by id, create; plus cold start, idle RSS and binary size.
 * The CMS runs twice on the same database, with its response cache on and off (docs/caching.md), and the
 * cached reads are also compared with a bare handler returning the CMS's own stored bytes.
 * Usage: bun scripts/bench.ts [--duration 10] [--rounds 5] [--connections 20] [--docs 10000] [--baseline DIR]
 *        [--engine sqlite|postgres] [--cases list,read,create] [--start-baseline BINARY]
 * Each server gets `duration` seconds per case in total, split into `rounds` interleaved turns.
 * `--baseline DIR` compares against another checkout of the CMS (run from its source, as this one then is)
 * instead of the bare server: before/after figures of a change, measured in one run on one database.
 * `--start-baseline BINARY` adds another build of `cms` (an older tree's dist/cms) to the cold starts, taking
 * turns with the floors and this one on the same project.
 * `--engine postgres` runs on a fresh database made on the cluster of CMS_TEST_POSTGRES_URL (as the tests
 * do: `.ci/postgres` prints one), against a bare Bun.serve + Bun.SQL handler; the database is dropped after.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import { createTestDatabase, type TestDatabase } from '../test/support/postgres.ts';
import { benchRequests, login, postsConfig, seedPosts } from './bench/posts.ts';
import { compileFloors } from './bench/floors.ts';
import { cmsBinary, cmsStart, coldStarts, freePort, guard, launch, production, rssKB } from './bench/processes.ts';
import { compare, pickCases, type Target } from './bench/rounds.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    docs: { type: 'string', default: '10000' },
    baseline: { type: 'string' },
    engine: { type: 'string', default: 'sqlite' },
    cases: { type: 'string', default: 'list,read,create' },
    'start-baseline': { type: 'string' },
  },
});
const engine = values.engine;
if (engine !== 'sqlite' && engine !== 'postgres')
  throw new Error(`--engine: expected sqlite or postgres, got ${engine}`);
const baseline = values.baseline ? path.resolve(values.baseline) : null;
const otherName = baseline ? 'baseline' : 'bare';
const duration = Number(values.duration);
// The two servers take turns in short rounds (scripts/bench/rounds.ts); the table reports medians.
const rounds = Math.max(1, Number(values.rounds));
const connections = Number(values.connections);
const total = Number(values.docs);
const useBinary = !baseline && fs.existsSync(cmsBinary);
const postgres: TestDatabase | null = engine === 'postgres' ? await createTestDatabase() : null;
if (postgres) console.log(`PostgreSQL database ${postgres.name} on ${new URL(postgres.url).host} (dropped at the end)`);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-'));
fs.writeFileSync(path.join(dir, 'cms.config.ts'), postsConfig(postgres?.url));
const log = (...a: unknown[]) => console.log(...a);
// The servers die with this process, and a failed or interrupted run still removes its folder and database.
const track = guard(dir, async () => postgres?.drop());

// Seed through the Local API (the same operations as REST). With --baseline, the baseline's: the older
// checkout makes the project and the newer one opens it as an upgrade would (a newer checkout reads an older
// migration layout, not the other way round).
const { getCMS } = (await import(
  baseline ? path.join(baseline, 'src/local.ts') : '../src/local.ts'
)) as typeof import('../src/local.ts');
await seedPosts(getCMS, dir, total);
const dbFile = path.join(dir, 'data/cms.db');
if (postgres) {
  // What autovacuum does a little after a bulk load (statistics, and the visibility map that lets a count
  // read only the index), so both servers meet the steady-state plans rather than the first minute's.
  const sql = new Bun.SQL(postgres.url, { max: 1 });
  await sql`VACUUM ANALYZE "posts"`;
  const indexes = await sql`SELECT indexname FROM pg_indexes WHERE tablename = 'posts' ORDER BY indexname`;
  log(`indexes: ${indexes.map((i: { indexname: string }) => i.indexname).join(', ')}`);
  const plan = await sql.unsafe(
    'EXPLAIN SELECT * FROM "posts" WHERE "status" = $1 ORDER BY "createdAt" DESC, "id" DESC LIMIT 20 OFFSET 0',
    ['published'],
  );
  const countPlan = await sql.unsafe(
    'EXPLAIN SELECT CAST(count(*) AS INTEGER) AS "n" FROM "posts" WHERE "status" = $1',
    ['published'],
  );
  const lines = (rows: Record<string, string>[]) => rows.map((r) => r['QUERY PLAN'].trim()).join(' | ');
  log(`query plan (list): ${lines(plan)}`);
  log(`query plan (count): ${lines(countPlan)}`);
  await sql.close();
} else {
  const db = new Database(dbFile);
  const plan = db
    .query(
      'EXPLAIN QUERY PLAN SELECT * FROM "posts" WHERE "status" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT 20 OFFSET 0',
    )
    .all('published') as { detail: string }[];
  const countPlan = db.query('EXPLAIN QUERY PLAN SELECT count(*) FROM "posts" WHERE "status" = ?').all('published') as {
    detail: string;
  }[];
  log(`query plan (list): ${plan.map((p) => p.detail).join(' | ')}`);
  log(`query plan (count): ${countPlan.map((p) => p.detail).join(' | ')}`);
  db.close();
}

const cmsPort = freePort();
// Up before the others start: its start-up may apply system migrations the others then find done.
const cmsProc = await launch(cmsStart(cmsPort, { cwd: dir, binary: useBinary }), track);
// The same CMS on the same database with the response cache off (docs/caching.md): what every uncached read costs.
const noCachePort = freePort();
let noCacheProc: Awaited<ReturnType<typeof launch>> | null = null;
if (!baseline) {
  const noCacheConfig = path.join(dir, 'cms.no-cache.config.ts');
  fs.writeFileSync(
    noCacheConfig,
    `import config from './cms.config.ts';\nexport default { ...config, cache: false };\n`,
  );
  noCacheProc = await launch(cmsStart(noCachePort, { cwd: dir, binary: useBinary, config: noCacheConfig }), track);
}
const barePort = freePort();
const bareServer = baseline
  ? {
      command: [process.execPath, path.join(baseline, 'src/cli/main.ts'), 'serve', '--port', String(barePort)],
      cwd: dir,
    }
  : postgres
    ? {
        command: [
          process.execPath,
          path.join(import.meta.dir, 'bench/bare-server-postgres.ts'),
          postgres.url,
          String(barePort),
        ],
      }
    : { command: [process.execPath, path.join(import.meta.dir, 'bench/bare-server.ts'), dbFile, String(barePort)] };
const bareProc = await launch(
  { ...bareServer, env: production(), url: `http://127.0.0.1:${barePort}/api/cms/posts/1` },
  track,
);
const idleRss = rssKB(cmsProc.pid);

const token = await login(`http://127.0.0.1:${cmsPort}/api/cms`);
const requests = benchRequests(total);
const listPath = `/api/cms${requests.list}`;
const readPath = `/api/cms${requests.read}`;

// The ceiling for cached answers: a bare handler returning the CMS's own bytes for these paths.
const storedPort = freePort();
const storedProc = baseline
  ? null
  : await launch(
      {
        command: [
          process.execPath,
          path.join(import.meta.dir, 'bench/stored-server.ts'),
          String(storedPort),
          `http://127.0.0.1:${cmsPort}`,
          listPath,
          readPath,
        ],
        env: production(),
        url: `http://127.0.0.1:${storedPort}${listPath}`,
      },
      track,
    );

// Same bytes check: the servers answer the list identically.
const [a, b] = await Promise.all(
  [cmsPort, barePort].map((p) => fetch(`http://127.0.0.1:${p}${listPath}`).then((r) => r.text())),
);
log(`list answer: cms ${a.length} bytes, ${otherName} ${b.length} bytes, identical: ${a === b}`);

type Case = Omit<Target, 'port'> & { key: string; name: string };
const allCases: Case[] = [
  { key: 'list', name: 'list published, newest first, 20 + totalDocs', path: listPath },
  { key: 'read', name: 'read one by id', path: readPath },
  {
    key: 'create',
    name: 'create one',
    path: '/api/cms/posts',
    method: 'POST',
    body: requests.createBody,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  },
];
// `--cases read,create` runs only those (an empty list only measures start-up, idle memory and size).
const cases = pickCases(allCases, values.cases);

/** Who is compared with whom, per case: the CMS (cache on, then off) against the bare handler; cached reads against stored bytes. */
type Side = { name: string; port: number };
const cmsSide: Side = { name: baseline ? 'cms' : 'cms (cache on)', port: cmsPort };
const otherSide: Side = { name: otherName, port: barePort };
const comparisons = (c: Case): [Side, Side][] => {
  if (baseline) return [[cmsSide, otherSide]];
  const pairs: [Side, Side][] = [
    [cmsSide, otherSide],
    [{ name: 'cms (cache off)', port: noCachePort }, otherSide],
  ];
  if (c.method !== 'POST') pairs.push([cmsSide, { name: 'stored bytes', port: storedPort }]);
  return pairs;
};

const rows: string[] = [];
for (const c of cases) {
  for (const [one, other] of comparisons(c)) {
    const m = await compare({ ...c, port: one.port }, { ...c, port: other.port }, { duration, rounds, connections });
    const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
    rows.push(
      `| ${c.name} | ${one.name} | ${Math.round(m.a.rps)} | ${m.a.p99} ms | ${other.name} | ${Math.round(m.b.rps)} | ${m.b.p99} ms | ${pct(m.ratio)} (${pct(m.low)}–${pct(m.high)}) |`,
    );
    log(
      `${c.name}: ${one.name} ${Math.round(m.a.rps)} req/s, ${other.name} ${Math.round(m.b.rps)} req/s, ratio ${pct(m.ratio)} (rounds: ${m.ratios.map(pct).join(' ')})`,
    );
  }
}
for (const proc of [cmsProc, noCacheProc, bareProc, storedProc]) proc?.kill();
await Promise.all([cmsProc, noCacheProc, bareProc, storedProc].map((proc) => proc?.exited));

// Cold start to first answered request, median of 10 (binary only), taking turns with the floors: the same
// first request answered by binaries that hold only the runtime, Elysia, bun:sqlite (scripts/bench/floors.ts).
let cold = 'n/a (no dist/cms)';
const starts: string[] = [];
if (useBinary) {
  const floors = await compileFloors(dir, dir);
  const startBaseline = values['start-baseline'] ? path.resolve(values['start-baseline']) : null;
  const before = startBaseline
    ? [
        {
          name: `${startBaseline} serve`,
          start: (port: number) => ({
            ...cmsStart(port, { cwd: dir, binary: true }),
            command: [startBaseline, 'serve', '--port', String(port)],
          }),
        },
      ]
    : [];
  const figures = await coldStarts(
    [...floors, ...before, { name: 'dist/cms serve', start: (port) => cmsStart(port, { cwd: dir, binary: true }) }],
    10,
    track,
  );
  cold = `${figures[figures.length - 1].wall.toFixed(1)} ms`;
  for (const f of figures)
    starts.push(
      `| ${f.name} | ${f.wall.toFixed(1)} ms | ${f.fastest.toFixed(1)} ms | ${f.cpu.toFixed(1)} ms | ${f.rssMB.toFixed(1)} MB |`,
    );
}
const size = useBinary ? `${(fs.statSync(cmsBinary).size / 1e6).toFixed(1)} MB` : 'n/a';

log('');
log(
  `CMS: ${useBinary ? 'dist/cms' : 'from source'}${baseline ? ` vs baseline ${baseline}` : ''} on ${postgres ? 'PostgreSQL' : 'SQLite'} · ${connections} connections · ${duration} s per server per case in ${rounds} interleaved rounds, after a 2 s warm-up · ${total} posts`,
);
log('| case | server | req/s | p99 | against | req/s | p99 | ratio, median (range) |');
log('|---|---|---|---|---|---|---|---|');
for (const r of rows) log(r);
log(`cold start to first answered request (median of 10): ${cold}`);
if (starts.length) {
  log('| cold start, taking turns | to the first answer, median | fastest | CPU by then, median | RSS 1 s later |');
  log('|---|---|---|---|---|');
  for (const row of starts) log(row);
}
log(`idle RSS after start: ${(idleRss / 1024).toFixed(1)} MB`);
log(`binary size: ${size}`);
fs.rmSync(dir, { recursive: true, force: true });
await postgres?.drop();
process.exit(0);
