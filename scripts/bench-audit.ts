/**
 * Figures for docs/audit-log.md and docs/mcp.md: writes with the audit log on against the same writes with it
 * off (create, and update of one document), and MCP `find` against the REST list for the same caller, in
 * one run. Two `cms serve` processes, each on its own database, loaded in alternating short rounds
 * (scripts/bench/rounds.ts), so drift of the machine's speed hits both alike; ratios are medians.
 *
 *   bun scripts/bench-audit.ts                                   # SQLite, 20 s per case
 *   bun scripts/bench-audit.ts --duration 10 --rounds 5
 *   bun scripts/bench-audit.ts --postgres postgres://cms_test:cms_test@127.0.0.1:5432/postgres
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCMS } from '../src/cms.ts';
import { localAPI } from '../src/local.ts';
import { createTestDatabase } from '../test/support/postgres.ts';
import { compare, pickCases, type Comparison, type Target } from './bench/rounds.ts';
import { postBody } from './bench/posts.ts';
import { cmsStart, freePort, guard, launch } from './bench/processes.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
    cases: { type: 'string', default: 'create,update,mcp-find' },
    postgres: { type: 'string' },
  },
});
const options = { duration: Number(values.duration), rounds: Number(values.rounds), connections: Number(values.connections) };
if (values.postgres) process.env.CMS_TEST_POSTGRES_URL = values.postgres;
const quiet = { info() {}, warn() {}, error: console.error };
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-audit-'));
const drops: (() => Promise<void>)[] = [];
const track = guard(root, () => Promise.all(drops.map((d) => d())));

type Instance = { port: number; key: string; stop(): void };

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
    collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text', required: true }, { name: 'body', type: 'textarea' }, { name: 'views', type: 'number' }] }],
  };
  fs.writeFileSync(path.join(dir, 'cms.config.json'), JSON.stringify(config));
  const cms = await createCMS({ configPath: path.join(dir, 'cms.config.json'), log: quiet });
  const api = localAPI(cms);
  const admin = await api.create({ collection: 'users', data: { email: 'bench@example.com', password: 'password123', role: 'admin' } });
  const key = (await api.create({ collection: 'api-keys', data: { name: 'bench', user: admin.id, scopes: ['*', 'mcp:publish'] } })).key as string;
  for (let i = 0; i < 50; i++) await api.create({ collection: 'posts', data: { title: `Post ${i}`, body: postBody, views: i } });
  await cms.close();
  const port = freePort();
  const child = await launch(cmsStart(port, { cwd: dir, binary: false }), track);
  return { port, key, stop: () => child.kill() };
}

const json = (key: string) => ({ 'content-type': 'application/json', authorization: `Bearer ${key}` });
const mcpHeaders = (key: string) => ({ ...json(key), accept: 'application/json, text/event-stream' });
const mcpFind = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'find', arguments: { collection: 'posts', limit: 20, sort: '-createdAt' } } });

const on = await instance('on', true);
const off = await instance('off', false);
const cases = [
  { key: 'create', label: 'create (POST /posts)', a: (i: Instance): Target => ({ port: i.port, path: '/api/cms/posts', method: 'POST', body: JSON.stringify({ title: 'Bench', body: postBody, views: 1 }), headers: json(i.key) }), b: off },
  { key: 'update', label: 'update (PATCH /posts/1)', a: (i: Instance): Target => ({ port: i.port, path: '/api/cms/posts/1', method: 'PATCH', body: JSON.stringify({ views: 2 }), headers: json(i.key) }), b: off },
  { key: 'mcp-find', label: 'MCP find vs REST list (audit on, 20 posts)', a: (i: Instance): Target => ({ port: i.port, path: '/api/cms/mcp', method: 'POST', body: mcpFind, headers: mcpHeaders(i.key) }), b: on },
];

try {
  console.log(`engine ${values.postgres ? 'postgres' : 'sqlite'}; ${options.duration} s per side in ${options.rounds} rounds, ${options.connections} connections`);
  for (const c of pickCases(cases, values.cases!)) {
    let result: Comparison;
    if (c.key === 'mcp-find') {
      result = await compare(c.a(on), { port: on.port, path: '/api/cms/posts?limit=20&sort=-createdAt', headers: json(on.key) }, options);
    } else {
      result = await compare(c.a(on), c.a(off), options);
    }
    const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
    console.log(`${c.label}: ${result.a.rps.toFixed(0)} vs ${result.b.rps.toFixed(0)} req/s, ratio ${pct(result.ratio)} (rounds ${pct(result.low)}–${pct(result.high)}), p99 ${result.a.p99} vs ${result.b.p99} ms`);
  }
} finally {
  on.stop();
  off.stop();
  await Bun.sleep(200);
  for (const drop of drops) await drop();
  fs.rmSync(root, { recursive: true, force: true });
}
