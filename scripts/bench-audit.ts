/**
 * Figures for docs/audit-log.md and docs/mcp.md: writes with the audit log on against the same writes with it
 * off (create, and update of one document), and MCP `find` against the REST list for the same caller, in
 * one run. Two `cms serve` processes, each on its own database, loaded in alternating short rounds, so
 * drift of the machine's speed hits both alike; ratios are medians of the rounds. Besides throughput it
 * reports requests per CPU-second of the server process (from /proc), which other load on a shared
 * machine disturbs far less than wall-clock throughput.
 *
 *   bun scripts/bench-audit.ts                                   # SQLite, 20 s per case
 *   bun scripts/bench-audit.ts --duration 10 --rounds 5
 *   bun scripts/bench-audit.ts --postgres postgres://cms_test:cms_test@127.0.0.1:5432/postgres
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCMS } from '../src/create-cms.ts';
import { localAPI } from '../src/local.ts';
import { createTestDatabase } from '../test/support/postgres.ts';
import { load, median, pickCases, type Target } from './bench/rounds.ts';
import { postBody } from './bench/posts.ts';
import { cmsStart, freePort, guard, launch } from './bench/processes.ts';
import { cpuSeconds } from './bench/cpu-rounds.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    cases: { type: 'string', default: 'create,update,mcp-find' },
    postgres: { type: 'string' },
  },
});
const options = {
  duration: Number(values.duration),
  rounds: Number(values.rounds),
  connections: Number(values.connections),
};
if (values.postgres) process.env.CMS_TEST_POSTGRES_URL = values.postgres;
const quiet = { info() {}, warn() {}, error: console.error };
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-audit-'));
const drops: (() => Promise<void>)[] = [];
const track = guard(root, () => Promise.all(drops.map((d) => d())));

type Instance = { port: number; key: string; pid: number; stop(): void };

/** A project folder with its config, seeded in-process (an admin, a key, 50 posts), then served by `cms serve` in its own process. */
async function instance(name: string, audit: boolean): Promise<Instance> {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  let database = path.join(dir, 'data/cms.db');
  if (values.postgres) {
    const pg = await createTestDatabase();
    database = pg.url;
    drops.push(pg.drop);
  }
  const config = {
    database,
    audit: audit ? {} : false,
    // The bench measures throughput, not the per-key bound.
    mcp: { requestsPerMinute: 1e9 },
    cache: false,
    // Creates go to `notes`, so `posts` (read by the MCP case) keeps its 50 documents.
    collections: ['posts', 'notes'].map((slug) => ({
      slug,
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'body', type: 'textarea' },
        { name: 'views', type: 'number' },
      ],
    })),
  };
  fs.writeFileSync(path.join(dir, 'cms.config.json'), JSON.stringify(config));
  const cms = await createCMS({ configPath: path.join(dir, 'cms.config.json'), log: quiet });
  const api = localAPI(cms);
  const admin = await api.create({
    collection: 'users',
    data: { email: 'bench@example.com', password: 'password123', role: 'admin' },
  });
  const key = (
    await api.create({ collection: 'api-keys', data: { name: 'bench', user: admin.id, scopes: ['*', 'mcp:publish'] } })
  ).key as string;
  for (let i = 0; i < 50; i++)
    await api.create({ collection: 'posts', data: { title: `Post ${i}`, body: postBody, views: i } });
  await cms.close();
  const port = freePort();
  const child = await launch(cmsStart(port, { cwd: dir, binary: false }), track);
  return { port, key, pid: child.pid, stop: () => child.kill() };
}

const json = (key: string) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}` });
const mcpFind = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'find', arguments: { collection: 'posts', limit: 20, sort: '-createdAt' } },
});

type Side = { target: Target; pid: number };
type Figures = { rps: number; perCpuSecond: number };

/** Alternating rounds (who goes first alternates); each side's throughput and its requests per CPU-second of the server. */
async function rounds(a: Side, b: Side): Promise<{ a: Figures; b: Figures; rpsRatios: number[]; cpuRatios: number[] }> {
  const turn = Math.max(1, Math.round(options.duration / options.rounds));
  for (const side of [a, b]) await load(side.target, 2, options.connections);
  const run = async (side: Side): Promise<Figures> => {
    const before = cpuSeconds(side.pid);
    const { rps } = await load(side.target, turn, options.connections);
    return { rps, perCpuSecond: (rps * turn) / Math.max(0.01, cpuSeconds(side.pid) - before) };
  };
  const as: Figures[] = [];
  const bs: Figures[] = [];
  for (let r = 0; r < options.rounds; r++) {
    if (r % 2 === 0) {
      as.push(await run(a));
      bs.push(await run(b));
    } else {
      bs.push(await run(b));
      as.push(await run(a));
    }
  }
  const mid = (xs: Figures[]): Figures => ({
    rps: median(xs.map((x) => x.rps)),
    perCpuSecond: median(xs.map((x) => x.perCpuSecond)),
  });
  return {
    a: mid(as),
    b: mid(bs),
    rpsRatios: as.map((x, i) => x.rps / bs[i]!.rps),
    cpuRatios: as.map((x, i) => x.perCpuSecond / bs[i]!.perCpuSecond),
  };
}

const on = await instance('on', true);
const off = await instance('off', false);
const write = (i: Instance, method: 'POST' | 'PATCH', url: string, body: unknown): Side => ({
  pid: i.pid,
  target: { port: i.port, path: `/api/cms${url}`, method, body: JSON.stringify(body), headers: json(i.key) },
});
const cases = [
  {
    key: 'create',
    label: 'create (POST /notes), audit on vs off',
    a: write(on, 'POST', '/notes', { title: 'Bench', body: postBody, views: 1 }),
    b: write(off, 'POST', '/notes', { title: 'Bench', body: postBody, views: 1 }),
  },
  {
    key: 'update',
    label: 'update (PATCH /posts/1), audit on vs off',
    a: write(on, 'PATCH', '/posts/1', { views: 2 }),
    b: write(off, 'PATCH', '/posts/1', { views: 2 }),
  },
  {
    key: 'mcp-find',
    label: 'MCP find vs REST list, 20 of 50 posts, same key',
    a: {
      pid: on.pid,
      target: {
        port: on.port,
        path: '/api/cms/mcp',
        method: 'POST',
        body: mcpFind,
        headers: { ...json(on.key), accept: 'application/json, text/event-stream' },
      },
    } as Side,
    b: {
      pid: on.pid,
      target: { port: on.port, path: '/api/cms/posts?limit=20&sort=-createdAt&depth=0', headers: json(on.key) },
    } as Side,
  },
];

try {
  console.log(
    `engine ${values.postgres ? 'postgres' : 'sqlite'}; ${options.duration} s per side in ${options.rounds} rounds, ${options.connections} connections`,
  );
  for (const c of pickCases(cases, values.cases!)) {
    const r = await rounds(c.a, c.b);
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    const spread = (xs: number[]) => `${pct(Math.min(...xs))}–${pct(Math.max(...xs))}`;
    console.log(`${c.label}:`);
    console.log(
      `  throughput     ${r.a.rps.toFixed(0)} vs ${r.b.rps.toFixed(0)} req/s, ratio ${pct(median(r.rpsRatios))} (rounds ${spread(r.rpsRatios)})`,
    );
    console.log(
      `  per CPU-second ${r.a.perCpuSecond.toFixed(0)} vs ${r.b.perCpuSecond.toFixed(0)} req, ratio ${pct(median(r.cpuRatios))} (rounds ${spread(r.cpuRatios)})`,
    );
  }
} finally {
  on.stop();
  off.stop();
  await Bun.sleep(200);
  for (const drop of drops) await drop();
  fs.rmSync(root, { recursive: true, force: true });
}
