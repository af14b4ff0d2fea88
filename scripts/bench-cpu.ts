/**
 * `bun scripts/bench-cpu.ts`: what one request costs the server in CPU time, read from /proc, for the
 * kept (cached) list and read by id, against `scripts/bench/stored-server.ts` returning the same stored
 * bytes, the list again from a client that accepts Brotli, the list as GraphQL (POST and GET) and as an MCP
 * `find`, and (`uncached`, `create`) the read by id with the response cache off and a create against
 * `scripts/bench/bare-server.ts` doing the same SQL. On a machine other work shares, a server's CPU time per
 * request moves far less than its throughput, so a request path's cost is compared here.
 * Usage: bun scripts/bench-cpu.ts [--seconds 3] [--rounds 5] [--connections 20] [--docs 2000] [--baseline DIR]
 *   [--cases list,read,list-key,brotli,graphql,graphql-get,mcp,uncached,create] (default: all but the last two;
 *   `list-key` is the list asked with the API key the MCP case sends, the same caller)
 * `--baseline DIR` adds another checkout of the CMS (from its source, as this one then runs) on the same file;
 * it may be given more than once. The `mcp` case also asks each server for the REST list with the same key
 * in the same turns, and prints the list's CPU per request over the MCP call's (the ratio the goal reads).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchRequests, graphqlListQuery, login, mcpFindBody, postsConfig, seedPosts } from './bench/posts.ts';
import { bareStart, cmsStart, freePort, guard, launch, production } from './bench/processes.ts';
import { cpuPerRequest, type Served } from './bench/cpu-rounds.ts';
import { median, pickCases } from './bench/rounds.ts';
import { getCMS } from '../src/local.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    docs: { type: 'string', default: '2000' },
    baseline: { type: 'string', multiple: true },
    cases: { type: 'string', default: 'list,read,list-key,brotli,graphql,graphql-get,mcp' },
  },
});
const total = Number(values.docs);
const o = { seconds: Number(values.seconds), rounds: Number(values.rounds), connections: Number(values.connections) };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-cpu-'));
const track = guard(dir);
// The MCP case measures a call's cost, not the per-key bound.
fs.writeFileSync(
  path.join(dir, 'cms.config.ts'),
  postsConfig().replace('export default {', 'export default {\n  mcp: { requestsPerMinute: 1e9 },'),
);
await seedPosts(getCMS, dir, total);
const key = await apiKey();

const wanted = new Set(values.cases!.split(',').map((c) => c.trim()));
// The response cache off (docs/caching.md), for what every uncached read costs.
const noCacheConfig = path.join(dir, 'cms.no-cache.config.ts');
fs.writeFileSync(noCacheConfig, `import config from './cms.config.ts';\nexport default { ...config, cache: false };\n`);
const cms = await launchCMS(null);
const checkouts = (values.baseline ?? []).map((b) => path.resolve(b));
/** Each baseline's name in the output: `baseline`, or with several, `baseline N`. */
const baselineName = (i: number) => (checkouts.length > 1 ? `baseline ${i + 1}` : 'baseline');
for (const [i, b] of checkouts.entries()) console.log(`${baselineName(i)}: ${b}`);
const baselines = [];
for (const b of checkouts) baselines.push(await launchCMS(b));
const uncached = wanted.has('uncached') || wanted.has('create') ? await launchCMS(null, noCacheConfig) : null;
const uncachedBaselines = [];
for (const b of uncached ? checkouts : []) uncachedBaselines.push(await launchCMS(b, noCacheConfig));
const requests = benchRequests(total);
// The REST list's documents and total as one GraphQL query.

const paths = {
  list: `/api/cms${requests.list}`,
  read: `/api/cms${requests.read}`,
  graphql: '/api/cms/graphql',
  graphqlGet: `/api/cms/graphql?query=${encodeURIComponent(graphqlListQuery)}`,
};
const graphqlBody = JSON.stringify({ query: graphqlListQuery });
const storedPort = freePort();
const stored = await launch(
  {
    command: [
      process.execPath,
      path.join(import.meta.dir, 'bench/stored-server.ts'),
      String(storedPort),
      `http://127.0.0.1:${cms.port}`,
      paths.list,
      paths.read,
      paths.graphqlGet,
      `${paths.graphql}\n${graphqlBody}`,
    ],
    env: production(),
    url: `http://127.0.0.1:${storedPort}${paths.list}`,
  },
  track,
);

const barePort = freePort();
const bare = uncached
  ? await launch(bareStart('bare-server.ts', path.join(dir, 'data/cms.db'), barePort, paths.read), track)
  : null;

async function launchCMS(checkout: string | null, config?: string) {
  const port = freePort();
  const start = cmsStart(port, { cwd: dir, binary: false, config });
  if (checkout) start.command = [process.execPath, path.join(checkout, 'src/cli/main.ts'), ...start.command.slice(2)];
  return { port, pid: (await launch(start, track)).pid };
}

/** An API key of the seeded admin, for the MCP case. */
async function apiKey(): Promise<string> {
  const local = await getCMS({
    config: path.join(dir, 'cms.config.ts'),
    log: { info() {}, warn() {}, error: console.error },
  });
  const user = (await local.find({ collection: 'users', limit: 1 })).docs[0]!;
  const created = await local.create({ collection: 'api-keys', data: { name: 'bench', user: user.id, scopes: ['*'] } });
  await local.close();
  return created.key as string;
}

const brotli = { 'accept-encoding': 'br' };
const json = { 'content-type': 'application/json' };
/** `bare`: measured on the servers with the cache off, against the bare server. */
type Case = { key: string; label: string; stored: boolean; bare?: boolean } & Pick<
  Served['target'],
  'path' | 'method' | 'body' | 'headers'
>;
const keyedList = { path: paths.list, headers: { authorization: `Bearer ${key}` } };
const createHeaders = async () => ({
  ...json,
  authorization: `Bearer ${await login(`http://127.0.0.1:${(uncached ?? cms).port}/api/cms`)}`,
});
const cases: Case[] = pickCases<Case>(
  [
    { key: 'list', label: 'list published, 20 + totalDocs (kept)', path: paths.list, stored: true },
    { key: 'read', label: 'read one by id (kept)', path: paths.read, stored: true },
    {
      key: 'list-key',
      label: 'list published, with the API key of the MCP case (kept)',
      ...keyedList,
      stored: false,
    },
    { key: 'brotli', label: 'list, client accepts Brotli (kept)', path: paths.list, headers: brotli, stored: false },
    {
      key: 'graphql',
      label: 'the list as a GraphQL query, POST (kept)',
      path: paths.graphql,
      method: 'POST',
      body: graphqlBody,
      headers: json,
      stored: true,
    },
    { key: 'graphql-get', label: 'the list as a GraphQL query, GET (kept)', path: paths.graphqlGet, stored: true },
    {
      key: 'mcp',
      label: 'the list as an MCP find',
      path: '/api/cms/mcp',
      method: 'POST',
      body: mcpFindBody,
      headers: { ...json, accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
      stored: false,
    },
    { key: 'uncached', label: 'read one by id (cache off)', path: paths.read, stored: false, bare: true },
    {
      key: 'create',
      label: 'create (cache off)',
      path: '/api/cms/posts',
      method: 'POST',
      body: requests.createBody,
      headers: wanted.has('create') ? await createHeaders() : json,
      stored: false,
      bare: true,
    },
  ],
  values.cases!,
);
console.log(`${o.seconds} s per server per round, ${o.rounds} rounds, ${o.connections} connections, ${total} posts`);
try {
  for (const c of cases) {
    const request = { path: c.path, method: c.method, body: c.body, headers: c.headers };
    const [mine, theirs] = c.bare ? [uncached!, uncachedBaselines] : [cms, baselines];
    const named = [['cms', mine] as const, ...theirs.map((t, i) => [baselineName(i), t] as const)];
    // With the MCP case, each server's REST list with the same key right after its call, in the same turns:
    // the ratio the MCP goal reads.
    const servers: Served[] = named.flatMap(([name, s]) => [
      { name, pid: s.pid, target: { port: s.port, ...request } },
      ...(c.key === 'mcp' ? [{ name: `${name} list-key`, pid: s.pid, target: { port: s.port, ...keyedList } }] : []),
    ]);
    if (c.bare) servers.push({ name: 'bare', pid: bare!.pid, target: { port: barePort, ...request } });
    if (c.stored) servers.push({ name: 'stored bytes', pid: stored.pid, target: { port: storedPort, ...request } });
    const figures = await cpuPerRequest(servers, o);
    console.log(c.label);
    for (const [name, f] of figures)
      console.log(
        `  ${name.padEnd(12)} ${f.cpuMicros.toFixed(1)} µs CPU per request, ${f.rps.toFixed(0)} req/s (rounds ${f.rounds.map((x) => x.toFixed(1)).join(' ')})`,
      );
    if (c.key === 'mcp')
      for (const [name] of named) {
        const [list, call] = [figures.get(`${name} list-key`)!, figures.get(name)!];
        // Each round's two turns are next to each other: their ratio is the least moved by other work.
        const perRound = median(list.rounds.map((x, r) => x / call.rounds[r]!));
        console.log(
          `  REST list with the key / MCP find, ${name}: ${((list.cpuMicros / call.cpuMicros) * 100).toFixed(0)}% (median of the rounds' ratios ${(perRound * 100).toFixed(0)}%)`,
        );
      }
    const ceiling = c.bare ? 'bare' : 'stored bytes';
    const ceilingCost = figures.get(ceiling)?.cpuMicros;
    if (ceilingCost)
      for (const [name] of named)
        console.log(`  ${ceiling} / ${name}: ${((ceilingCost / figures.get(name)!.cpuMicros) * 100).toFixed(0)}%`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
