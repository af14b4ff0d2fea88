/**
 * `bun scripts/bench-payload.ts`: the CMS (dist/cms, else from source) against Payload CMS 3 (the versions
 * pinned in scripts/bench-payload/app/package.json) on SQLite, in one run: the same collection, the same
 * 10,000 posts (each with an author) and the same three requests as scripts/bench.ts (list with filter + sort
 * + count, read by id, create as a logged-in user), plus that list over GraphQL with each post's author
 * (Payload's own endpoint, /api/graphql), loaded in interleaved rounds; plus idle RSS and cold start of both.
 * Usage: bun scripts/bench-payload.ts [--duration 10] [--rounds 5] [--connections 20] [--docs 10000]
 *        [--cases list,read,create,graphql] [--cache DIR] [--payload-wal]
 * Payload is not a dependency of this project: its app (scripts/bench-payload/app) is installed with npm
 * and built with `next build` in DIR/<payload version> (default ~/.cache/cms-bench-payload), reused by the
 * next run, and served by `next start` under Node.js in production mode. Payload keeps its SQLite defaults
 * (rollback journal, synchronous=FULL) unless `--payload-wal` gives it the CMS's WAL and synchronous=NORMAL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { nodeVersion, pinned, preparePayload } from './bench-payload/prepare.ts';
import { benchRequests, login, postBody, postsConfig, postsWithAuthorCollection, seedPosts } from './bench/posts.ts';
import { cmsBinary, cmsStart, coldStart, freePort, guard, launch, treeRssKB } from './bench/processes.ts';
import { compare, pickCases, type Target } from './bench/rounds.ts';
import { getCMS } from '../src/local.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    docs: { type: 'string', default: '10000' },
    cases: { type: 'string', default: 'list,read,create,graphql' },
    cache: { type: 'string' },
    'payload-wal': { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const rounds = Math.max(1, Number(values.rounds));
const connections = Number(values.connections);
const total = Number(values.docs);
const cacheRoot = path.resolve(
  values.cache ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'cms-bench-payload'),
);
const useBinary = fs.existsSync(cmsBinary);
const log = (...a: unknown[]) => console.log(...a);

const versions = pinned();
log(
  `Payload ${versions.payload} (@payloadcms/db-sqlite ${versions['@payloadcms/db-sqlite']}, next ${versions.next}, react ${versions.react}) on Node.js ${nodeVersion()}; the CMS ${useBinary ? 'dist/cms' : 'from source'} on Bun ${Bun.version}`,
);
const appDir = await preparePayload(cacheRoot);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-payload-'));
const payloadDb = path.join(dir, 'payload.db');
// The servers die with this process, and a failed or interrupted run still removes its folder.
const track = guard(dir);

// Payload reads its database and secret from the environment (app/payload.config.ts). NODE_ENV is left
// out for the seed: outside production the SQLite adapter pushes the schema on start.
const { NODE_ENV: _, ...baseEnv } = process.env;
const payloadEnv = {
  ...baseEnv,
  NEXT_TELEMETRY_DISABLED: '1',
  PAYLOAD_SECRET: 'cms-bench-payload-secret',
  BENCH_PAYLOAD_DB: payloadDb,
  BENCH_PAYLOAD_WAL: values['payload-wal'] ? '1' : '0',
};

// Both seeded at once (the load comes later): the CMS through its Local API here, Payload through its own
// in a Node.js child (`payload run`), with the same posts and timestamps.
fs.writeFileSync(path.join(dir, 'cms.config.ts'), postsConfig(undefined, postsWithAuthorCollection));
const payloadSeed = Bun.spawn(['node', 'node_modules/payload/bin.js', 'run', 'seed.ts'], {
  cwd: appDir,
  env: { ...payloadEnv, BENCH_DOCS: String(total), BENCH_BODY: postBody },
  stdout: 'pipe',
  stderr: 'pipe',
});
track(payloadSeed);
await seedPosts(getCMS, dir, total, true);
const [seedOut, seedErr] = await Promise.all([
  new Response(payloadSeed.stdout).text(),
  new Response(payloadSeed.stderr).text(),
]);
if ((await payloadSeed.exited) !== 0)
  throw new Error(`Payload seed failed (exit ${payloadSeed.exitCode}):\n${(seedOut + seedErr).trim().slice(-3000)}`);
log(seedOut.trim().split('\n').at(-1));

const cmsServer = (port: number) => cmsStart(port, { cwd: dir, binary: useBinary });
// `next start` serves the build in production mode; Payload itself starts on the first request, which the
// readiness URL makes (GET /api/users/init reads the users table).
const payloadServer = (port: number) => ({
  command: ['node', 'node_modules/next/dist/bin/next', 'start', '--port', String(port), '--hostname', '127.0.0.1'],
  cwd: appDir,
  env: { ...payloadEnv, NODE_ENV: 'production' },
  url: `http://127.0.0.1:${port}/api/users/init`,
  wait: 60000,
});

const cmsPort = freePort();
const cmsProc = await launch(cmsServer(cmsPort), track);
const payloadPort = freePort();
const payloadProc = await launch(payloadServer(payloadPort), track);
// Both after their first answer and before any load; Payload's whole process tree, should Next fork.
const idle = { cms: treeRssKB(cmsProc.pid), payload: treeRssKB(payloadProc.pid) };

const cmsToken = await login(`http://127.0.0.1:${cmsPort}/api/cms`);
const payloadToken = await login(`http://127.0.0.1:${payloadPort}/api`);

const { list, read, createBody } = benchRequests(total);
// The list's posts with their authors over GraphQL, in the query both products' schemas take (Payload's
// names); users are readable only when signed in, so both are asked as the bench user.
const authorFields = 'id email createdAt updatedAt';
const graphqlQuery = `{ Posts(where: { status: { equals: published } }, sort: "-createdAt", limit: 20) { docs { id title body status views createdAt updatedAt author { ${authorFields} } } totalDocs limit page totalPages hasNextPage hasPrevPage nextPage prevPage pagingCounter } }`;
const graphql = (port: number, api: string, authorization: string): Target => ({
  port,
  path: `${api}/graphql`,
  method: 'POST',
  body: JSON.stringify({ query: graphqlQuery }),
  headers: { 'content-type': 'application/json', authorization },
});
type Case = { key: string; name: string; cms: Target; payload: Target };
const allCases: Case[] = [
  {
    key: 'list',
    name: 'list published, newest first, 20 + totalDocs',
    cms: { port: cmsPort, path: `/api/cms${list}` },
    payload: { port: payloadPort, path: `/api${list}` },
  },
  {
    key: 'read',
    name: 'read one by id',
    cms: { port: cmsPort, path: `/api/cms${read}` },
    payload: { port: payloadPort, path: `/api${read}` },
  },
  {
    key: 'create',
    name: 'create one',
    cms: {
      port: cmsPort,
      path: '/api/cms/posts',
      method: 'POST',
      body: createBody,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${cmsToken}` },
    },
    payload: {
      port: payloadPort,
      path: '/api/posts',
      method: 'POST',
      body: createBody,
      headers: { 'content-type': 'application/json', authorization: `JWT ${payloadToken}` },
    },
  },
  {
    key: 'graphql',
    name: 'GraphQL: that list, each post with its author',
    cms: graphql(cmsPort, '/api/cms', `Bearer ${cmsToken}`),
    payload: graphql(payloadPort, '/api', `JWT ${payloadToken}`),
  },
];
const cases = pickCases(allCases, values.cases);

// Equivalent answers before any load: the same documents in the same order and the same totalDocs (the
// bytes differ: key order, Payload's paging fields), and the same document read by id.
type Doc = Record<string, unknown>;
const fields = (d: Doc) =>
  JSON.stringify(['id', 'title', 'body', 'status', 'views', 'createdAt', 'updatedAt'].map((k) => d[k]));
const get = async (t: Target) => {
  const res = await fetch(`http://127.0.0.1:${t.port}${t.path}`);
  if (!res.ok) throw new Error(`GET ${t.path} on port ${t.port}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Doc;
};
const [cmsList, payloadList] = await Promise.all([get(allCases[0].cms), get(allCases[0].payload)]);
const sameList =
  cmsList.totalDocs === payloadList.totalDocs &&
  JSON.stringify((cmsList.docs as Doc[]).map(fields)) === JSON.stringify((payloadList.docs as Doc[]).map(fields));
const [cmsOne, payloadOne] = await Promise.all([get(allCases[1].cms), get(allCases[1].payload)]);
if (!sameList || fields(cmsOne) !== fields(payloadOne)) {
  throw new Error(
    `the two answer different content:\ncms list ${JSON.stringify(cmsList).slice(0, 600)}\nPayload list ${JSON.stringify(payloadList).slice(0, 600)}\ncms read ${JSON.stringify(cmsOne)}\nPayload read ${JSON.stringify(payloadOne)}`,
  );
}
log(
  `equivalent answers: list of ${(cmsList.docs as Doc[]).length} (totalDocs ${cmsList.totalDocs}) and read by id; list bytes cms ${JSON.stringify(cmsList).length}, Payload ${JSON.stringify(payloadList).length}`,
);

// Over GraphQL, the same posts as the REST list, each with its author, and no errors.
const ask = async (t: Target) => {
  const res = await fetch(`http://127.0.0.1:${t.port}${t.path}`, { method: 'POST', headers: t.headers, body: t.body });
  const body = (await res.json()) as { data?: { Posts: Doc & { docs: Doc[] } }; errors?: unknown };
  if (!res.ok || body.errors || !body.data)
    throw new Error(`GraphQL on port ${t.port}: ${res.status} ${JSON.stringify(body).slice(0, 600)}`);
  return body.data.Posts;
};
const graphqlCase = allCases.find((c) => c.key === 'graphql')!;
const [cmsGraph, payloadGraph] = await Promise.all([ask(graphqlCase.cms), ask(graphqlCase.payload)]);
// The authors' timestamps differ (each seed made its user at its own time), so id and email are compared.
const withAuthor = (d: Doc) => fields(d) + JSON.stringify(['id', 'email'].map((k) => (d.author as Doc | null)?.[k]));
const sameGraph =
  cmsGraph.totalDocs === cmsList.totalDocs &&
  cmsGraph.totalDocs === payloadGraph.totalDocs &&
  JSON.stringify(cmsGraph.docs.map(withAuthor)) === JSON.stringify(payloadGraph.docs.map(withAuthor)) &&
  JSON.stringify(cmsGraph.docs.map(fields)) === JSON.stringify((cmsList.docs as Doc[]).map(fields));
if (!sameGraph)
  throw new Error(
    `the two answer different GraphQL content:\ncms ${JSON.stringify(cmsGraph).slice(0, 800)}\nPayload ${JSON.stringify(payloadGraph).slice(0, 800)}`,
  );
log(
  `equivalent GraphQL answers: ${cmsGraph.docs.length} posts with their authors; bytes cms ${JSON.stringify(cmsGraph).length}, Payload ${JSON.stringify(payloadGraph).length}`,
);

const times = (x: number) => `${x.toFixed(1)}x`;
const rows: string[] = [];
for (const c of cases) {
  const m = await compare(c.cms, c.payload, { duration, rounds, connections });
  rows.push(
    `| ${c.name} | ${Math.round(m.a.rps)} | ${m.a.p99} ms | ${Math.round(m.b.rps)} | ${m.b.p99} ms | ${times(m.ratio)} (${times(m.low)}–${times(m.high)}) |`,
  );
  log(
    `${c.name}: cms ${Math.round(m.a.rps)} req/s, Payload ${Math.round(m.b.rps)} req/s, ratio ${times(m.ratio)} (rounds: ${m.ratios.map(times).join(' ')})`,
  );
}
cmsProc.kill();
payloadProc.kill();
await Promise.all([cmsProc.exited, payloadProc.exited]);

// Cold start to first answered request, median of 10 fresh starts each on the seeded databases.
const coldCms = useBinary ? `${(await coldStart(cmsServer, 10, track)).toFixed(1)} ms` : 'n/a (no dist/cms)';
const coldPayload = `${(await coldStart(payloadServer, 10, track)).toFixed(0)} ms`;

const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
log('');
log(
  `CMS ${useBinary ? 'dist/cms' : 'from source'} (Bun ${Bun.version}) vs Payload ${versions.payload} + @payloadcms/db-sqlite ${versions['@payloadcms/db-sqlite']} on next ${versions.next} (\`next start\`, Node.js ${nodeVersion()}) · SQLite (Payload ${values['payload-wal'] ? 'in WAL, synchronous=NORMAL, as the CMS' : 'with its defaults: rollback journal, synchronous=FULL; the CMS in WAL, synchronous=NORMAL'}) · ${connections} connections · ${duration} s per server per case in ${rounds} interleaved rounds, after a 2 s warm-up · ${total} posts`,
);
log('| case | cms req/s | cms p99 | Payload req/s | Payload p99 | cms / Payload, median (range) |');
log('|---|---|---|---|---|---|');
for (const r of rows) log(r);
log(`cold start to first answered request (median of 10): cms ${coldCms}, Payload ${coldPayload}`);
log(`idle RSS after the first answer: cms ${mb(idle.cms)}, Payload ${mb(idle.payload)}`);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
