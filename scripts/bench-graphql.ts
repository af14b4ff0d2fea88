/**
 * `bun scripts/bench-graphql.ts`: GraphQL against REST on the same CMS, in one run: the published posts,
 * newest first, 20 and their total, each with its author (REST `depth=1`, GraphQL selecting `author`),
 * with the response cache on and off (two servers on the same SQLite file). Both requests are sent as the
 * same signed-in user (users are readable only when signed in), so both answers hold the authors.
 * Usage: bun scripts/bench-graphql.ts [--duration 10] [--rounds 5] [--connections 20] [--docs 2000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchUser, login, postBody, postsWithAuthorCollection } from './bench/posts.ts';
import { cmsBinary, cmsStart, freePort, guard, launch } from './bench/processes.ts';
import { compare, type Target } from './bench/rounds.ts';
import { getCMS } from '../src/local.ts';
import { manualClock } from '../src/clock.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    docs: { type: 'string', default: '2000' },
  },
});
const o = {
  duration: Number(values.duration),
  rounds: Math.max(1, Number(values.rounds)),
  connections: Number(values.connections),
};
const total = Number(values.docs);
const useBinary = fs.existsSync(cmsBinary);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-graphql-'));
const track = guard(dir);
fs.writeFileSync(path.join(dir, 'cms.config.ts'), `export default { collections: [${postsWithAuthorCollection}] };\n`);
fs.writeFileSync(
  path.join(dir, 'cms.no-cache.config.ts'),
  `import config from './cms.config.ts';\nexport default { ...config, cache: false };\n`,
);

// Seed: the bench user and `total` posts through the Local API, each by that user.
const clock = manualClock(Date.parse('2026-01-01T00:00:00Z'));
const cms = await getCMS({
  config: path.join(dir, 'cms.config.ts'),
  clock,
  log: { info() {}, warn: console.warn, error: console.error },
});
const author = (await cms.create({ collection: 'users', data: { ...benchUser, name: 'Bench Author', role: 'admin' } }))
  .id;
for (let i = 0; i < total; i++) {
  clock.advance(1000);
  await cms.create({
    collection: 'posts',
    data: { title: `Post ${i}`, body: postBody, status: i % 2 ? 'published' : 'draft', views: i, author },
  });
}
await cms.close();

const cachedPort = freePort();
const uncachedPort = freePort();
const servers = [
  await launch(cmsStart(cachedPort, { cwd: dir, binary: useBinary }), track),
  await launch(
    cmsStart(uncachedPort, { cwd: dir, binary: useBinary, config: path.join(dir, 'cms.no-cache.config.ts') }),
    track,
  ),
];
const token = await login(`http://127.0.0.1:${cachedPort}/api/cms`);
const auth = { authorization: `Bearer ${token}` };
const fields =
  'id title body status views createdAt updatedAt author { id email name role active createdAt updatedAt }';
const query = `{ Posts(where: { status: { equals: published } }, sort: "-createdAt", limit: 20) { docs { ${fields} } totalDocs limit page totalPages hasNextPage hasPrevPage nextPage prevPage pagingCounter } }`;
const rest = (port: number): Target => ({
  port,
  path: '/api/cms/posts?where[status][equals]=published&sort=-createdAt&limit=20&depth=1',
  headers: auth,
});
const graph = (port: number): Target => ({
  port,
  path: '/api/cms/graphql',
  method: 'POST',
  body: JSON.stringify({ query }),
  headers: { ...auth, 'content-type': 'application/json' },
});

// Both answers hold the same 20 posts with their authors.
const restBody = (await (
  await fetch(`http://127.0.0.1:${cachedPort}${rest(cachedPort).path}`, { headers: auth })
).json()) as { docs: { id: number; author: { email: string } }[] };
const graphBody = (await (
  await fetch(`http://127.0.0.1:${cachedPort}/api/cms/graphql`, {
    method: 'POST',
    headers: graph(cachedPort).headers,
    body: graph(cachedPort).body,
  })
).json()) as { data: { Posts: { docs: { id: number; author: { email: string } }[] } } };
const same =
  JSON.stringify(restBody.docs.map((d) => [d.id, d.author.email])) ===
  JSON.stringify(graphBody.data.Posts.docs.map((d) => [d.id, d.author.email]));
console.log(`same 20 posts and authors from REST and GraphQL: ${same}`);
if (!same) throw new Error('REST and GraphQL answered different documents');

const rows: string[] = [];
for (const [label, port] of [
  ['cache on', cachedPort],
  ['cache off', uncachedPort],
] as const) {
  const m = await compare(graph(port), rest(port), o);
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  rows.push(
    `| ${label} | ${Math.round(m.a.rps)} | ${m.a.p99} ms | ${Math.round(m.b.rps)} | ${m.b.p99} ms | ${pct(m.ratio)} (${pct(m.low)}–${pct(m.high)}) |`,
  );
  console.log(
    `${label}: GraphQL ${Math.round(m.a.rps)} req/s, REST ${Math.round(m.b.rps)} req/s, ratio ${pct(m.ratio)} (rounds: ${m.ratios.map(pct).join(' ')})`,
  );
}
for (const proc of servers) proc.kill();
await Promise.all(servers.map((proc) => proc.exited));

console.log('');
console.log(
  `CMS: ${useBinary ? 'dist/cms' : 'from source'} on SQLite · ${o.connections} connections · ${o.duration} s per side per case in ${o.rounds} interleaved rounds, after a 2 s warm-up · ${total} posts, 20 per page with their author`,
);
console.log('| response cache | GraphQL req/s | p99 | REST req/s | p99 | GraphQL / REST, median (range) |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
