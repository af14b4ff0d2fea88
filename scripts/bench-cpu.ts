/**
 * `bun scripts/bench-cpu.ts`: what one request costs the server in CPU time, read from /proc, for the
 * kept (cached) list and read by id, against `scripts/bench/stored-server.ts` returning the same stored
 * bytes, the list again from a client that accepts Brotli, and (`--cases uncached,create`) the read by id
 * with the response cache off and a create against `scripts/bench/bare-server.ts` doing the same SQL.
 * On a machine other work shares, a server's
 * CPU time per request moves far less than its throughput, so a request path's cost is compared here.
 * Usage: bun scripts/bench-cpu.ts [--seconds 3] [--rounds 5] [--connections 20] [--docs 2000] [--baseline DIR]
 *   [--cases kept,uncached,create] (default kept)
 * `--baseline DIR` adds another checkout of the CMS (from its source, as this one then runs) on the same file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchRequests, login, postsConfig, seedPosts } from './bench/posts.ts';
import { cmsStart, freePort, guard, launch, production } from './bench/processes.ts';
import { cpuPerRequest, type Served } from './bench/cpu-rounds.ts';
import type { Target } from './bench/rounds.ts';
import { getCMS } from '../src/local.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    docs: { type: 'string', default: '2000' },
    baseline: { type: 'string' },
    cases: { type: 'string', default: 'kept' },
  },
});
const total = Number(values.docs);
const o = { seconds: Number(values.seconds), rounds: Number(values.rounds), connections: Number(values.connections) };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-cpu-'));
const track = guard(dir);
fs.writeFileSync(path.join(dir, 'cms.config.ts'), postsConfig());
await seedPosts(getCMS, dir, total);

const groups = new Set(values.cases.split(',').map((c) => c.trim()));
for (const g of groups)
  if (!['kept', 'uncached', 'create'].includes(g)) throw new Error(`--cases: unknown ${g} (kept, uncached, create)`);
// The response cache off (docs/caching.md), for what every uncached read costs.
const noCacheConfig = path.join(dir, 'cms.no-cache.config.ts');
fs.writeFileSync(noCacheConfig, `import config from './cms.config.ts';\nexport default { ...config, cache: false };\n`);
const cms = await launchCMS(null);
const baseline = values.baseline ? await launchCMS(path.resolve(values.baseline)) : null;
const uncached = groups.has('uncached') || groups.has('create') ? await launchCMS(null, noCacheConfig) : null;
const uncachedBaseline =
  uncached && values.baseline ? await launchCMS(path.resolve(values.baseline), noCacheConfig) : null;
const requests = benchRequests(total);
const paths = { list: `/api/cms${requests.list}`, read: `/api/cms${requests.read}` };
const storedPort = freePort();
const stored = await launch(
  {
    command: [
      process.execPath,
      path.join(import.meta.dir, 'bench/stored-server.ts'),
      String(storedPort),
      `http://127.0.0.1:${cms.port}`,
      ...Object.values(paths),
    ],
    env: production(),
    url: `http://127.0.0.1:${storedPort}${paths.list}`,
  },
  track,
);

const barePort = freePort();
const bare = uncached
  ? await launch(
      {
        command: [
          process.execPath,
          path.join(import.meta.dir, 'bench/bare-server.ts'),
          path.join(dir, 'data/cms.db'),
          String(barePort),
        ],
        env: production(),
        url: `http://127.0.0.1:${barePort}${paths.read}`,
      },
      track,
    )
  : null;

async function launchCMS(checkout: string | null, config?: string) {
  const port = freePort();
  const start = cmsStart(port, { cwd: dir, binary: false, config });
  if (checkout) start.command = [process.execPath, path.join(checkout, 'src/cli/main.ts'), ...start.command.slice(2)];
  return { port, pid: (await launch(start, track)).pid };
}

const brotli = { 'accept-encoding': 'br' };
type Case = { label: string; path: string; headers?: Record<string, string>; stored: boolean; uncached?: Target };
const cases: Case[] = [];
if (groups.has('kept'))
  cases.push(
    { label: 'list published, 20 + totalDocs (kept)', path: paths.list, stored: true },
    { label: 'read one by id (kept)', path: paths.read, stored: true },
    { label: 'list, client accepts Brotli (kept)', path: paths.list, headers: brotli, stored: false },
  );
if (groups.has('uncached'))
  cases.push({
    label: 'read one by id (cache off)',
    path: paths.read,
    stored: false,
    uncached: { port: 0, path: paths.read },
  });
if (groups.has('create')) {
  const headers = {
    'content-type': 'application/json',
    authorization: `Bearer ${await login(`http://127.0.0.1:${cms.port}/api/cms`)}`,
  };
  const create = { port: 0, path: '/api/cms/posts', method: 'POST' as const, body: requests.createBody, headers };
  cases.push({ label: 'create (cache off)', path: create.path, stored: false, uncached: create });
}
console.log(`${o.seconds} s per server per round, ${o.rounds} rounds, ${o.connections} connections, ${total} posts`);
try {
  for (const c of cases) {
    const servers: Served[] = c.uncached
      ? [uncached!, uncachedBaseline, { ...cms, pid: bare!.pid, port: barePort }].flatMap((s, i) =>
          s ? [{ name: ['cms', 'baseline', 'bare'][i]!, pid: s.pid, target: { ...c.uncached!, port: s.port } }] : [],
        )
      : [{ name: 'cms', pid: cms.pid, target: { port: cms.port, path: c.path, headers: c.headers } }];
    if (baseline && !c.uncached)
      servers.push({
        name: 'baseline',
        pid: baseline.pid,
        target: { port: baseline.port, path: c.path, headers: c.headers },
      });
    if (c.stored) servers.push({ name: 'stored bytes', pid: stored.pid, target: { port: storedPort, path: c.path } });
    const figures = await cpuPerRequest(servers, o);
    console.log(c.label);
    for (const [name, f] of figures)
      console.log(
        `  ${name.padEnd(12)} ${f.cpuMicros.toFixed(1)} µs CPU per request, ${f.rps.toFixed(0)} req/s (rounds ${f.rounds.map((x) => x.toFixed(1)).join(' ')})`,
      );
    const ceiling = c.uncached ? 'bare' : 'stored bytes';
    const ceilingCost = figures.get(ceiling)?.cpuMicros;
    if (ceilingCost)
      for (const name of ['cms', 'baseline'].filter((n) => figures.has(n)))
        console.log(`  ${ceiling} / ${name}: ${((ceilingCost / figures.get(name)!.cpuMicros) * 100).toFixed(0)}%`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
