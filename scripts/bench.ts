/**
 * `bun run bench`: the CMS (dist/cms, else from source) against a bare Bun.serve over the same SQLite file,
 * in one run: list (filter + sort + count), read by id, create; plus cold start, idle RSS and binary size.
 * Usage: bun scripts/bench.ts [--duration 10] [--rounds 5] [--connections 20] [--docs 10000] [--baseline DIR]
 * Each server gets `duration` seconds per case in total, split into `rounds` interleaved turns.
 * `--baseline DIR` compares against another checkout of the CMS (run from its source, as this one then is)
 * instead of the bare server: before/after figures of a change, measured in one run on one database.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Database } from 'bun:sqlite';
import { getCMS } from '../src/local.ts';
import { manualClock } from '../src/clock.ts';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '10' }, rounds: { type: 'string', default: '5' }, connections: { type: 'string', default: '20' }, docs: { type: 'string', default: '10000' }, baseline: { type: 'string' } } });
const baseline = values.baseline ? path.resolve(values.baseline) : null;
const otherName = baseline ? 'baseline' : 'bare';
const duration = Number(values.duration);
// The machine's speed drifts between runs (STACK-FACTS: up to 2.5x), so the two servers take turns in
// short rounds and each round yields a ratio; the table reports medians.
const rounds = Math.max(1, Number(values.rounds));
const connections = Number(values.connections);
const total = Number(values.docs);
const root = path.join(import.meta.dir, '..');
const binary = path.join(root, 'dist/cms');
const useBinary = !baseline && fs.existsSync(binary);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-'));
const config = `export default {
  collections: [{
    slug: 'posts',
    access: { read: () => true },
    indexes: [{ fields: ['status', 'createdAt'] }],
    fields: [
      { name: 'title', type: 'text', required: true },
      { name: 'body', type: 'textarea' },
      { name: 'status', type: 'select', options: ['draft', 'published'] },
      { name: 'views', type: 'number' },
    ],
  }],
}
`;
fs.writeFileSync(path.join(dir, 'cms.config.ts'), config);
const log = (...a: unknown[]) => console.log(...a);

// Seed through the Local API (the same operations as REST).
const body = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(6).slice(0, 340);
{
  const clock = manualClock(Date.parse('2026-01-01T00:00:00Z'));
  const cms = await getCMS({ config: path.join(dir, 'cms.config.ts'), clock, log: { info() {}, warn: console.warn, error: console.error } });
  const started = performance.now();
  await cms.create({ collection: 'users', data: { email: 'bench@example.com', password: 'password123', role: 'admin' } });
  for (let i = 0; i < total; i++) {
    clock.advance(1000);
    await cms.create({ collection: 'posts', data: { title: `Post ${i}`, body, status: i % 2 ? 'published' : 'draft', views: i } });
    if (i % 1000 === 999) process.stdout.write(`\rseeding ${i + 1}/${total}`);
  }
  log(`\rseeded ${total} posts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await cms.close();
}
const dbFile = path.join(dir, 'data/cms.db');
{
  const db = new Database(dbFile);
  const plan = db.query('EXPLAIN QUERY PLAN SELECT * FROM "posts" WHERE "status" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT 20 OFFSET 0').all('published') as { detail: string }[];
  const countPlan = db.query('EXPLAIN QUERY PLAN SELECT count(*) FROM "posts" WHERE "status" = ?').all('published') as { detail: string }[];
  log(`query plan (list): ${plan.map((p) => p.detail).join(' | ')}`);
  log(`query plan (count): ${countPlan.map((p) => p.detail).join(' | ')}`);
  db.close();
}

const freePort = () => 20000 + Math.floor(Math.random() * 30000);
async function waitFor(url: string, ms = 10000): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < ms) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return performance.now() - start;
    } catch {
      await Bun.sleep(2);
    }
  }
  throw new Error(`no answer from ${url}`);
}
function rssKB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

const cmsCommand = (port: number) => (useBinary ? [binary, 'serve', '--port', String(port)] : [process.execPath, path.join(root, 'src/cli/main.ts'), 'serve', '--port', String(port)]);
const cmsPort = freePort();
const cmsProc = Bun.spawn(cmsCommand(cmsPort), { cwd: dir, env: { ...process.env, NODE_ENV: 'production' }, stdout: 'ignore', stderr: 'inherit' });
const barePort = freePort();
const bareProc = baseline
  ? Bun.spawn([process.execPath, path.join(baseline, 'src/cli/main.ts'), 'serve', '--port', String(barePort)], { cwd: dir, env: { ...process.env, NODE_ENV: 'production' }, stdout: 'ignore', stderr: 'inherit' })
  : Bun.spawn([process.execPath, path.join(import.meta.dir, 'bench/bare-server.ts'), dbFile, String(barePort)], { stdout: 'ignore', stderr: 'inherit' });
await waitFor(`http://127.0.0.1:${cmsPort}/api/cms/users/init`);
await waitFor(`http://127.0.0.1:${barePort}/api/cms/posts/1`);
const idleRss = rssKB(cmsProc.pid);

const login = await (await fetch(`http://127.0.0.1:${cmsPort}/api/cms/users/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'bench@example.com', password: 'password123' }) })).json();
const token = login.token as string;
const listPath = '/api/cms/posts?where[status][equals]=published&sort=-createdAt&limit=20&depth=0';
const createBody = JSON.stringify({ title: 'Bench post', body, status: 'published', views: 1 });

// Same bytes check: the two servers answer the list identically.
const [a, b] = await Promise.all([cmsPort, barePort].map((p) => fetch(`http://127.0.0.1:${p}${listPath}`).then((r) => r.text())));
log(`list answer: cms ${a.length} bytes, ${otherName} ${b.length} bytes, identical: ${a === b}`);

type Case = { name: string; path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> };
const cases: Case[] = [
  { name: 'list published, newest first, 20 + totalDocs', path: listPath },
  { name: 'read one by id', path: `/api/cms/posts/${Math.floor(total / 2) + 1}?depth=0` },
  { name: 'create one', path: '/api/cms/posts', method: 'POST', body: createBody, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } },
];

async function load(port: number, c: Case, seconds: number) {
  const result = await autocannon({ url: `http://127.0.0.1:${port}${c.path}`, method: c.method ?? 'GET', body: c.body, headers: c.headers, connections, duration: seconds });
  if (result.non2xx) throw new Error(`${c.name}: ${result.non2xx} non-2xx answers on port ${port}`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const rows: string[] = [];
const stopServers = () => {
  cmsProc.kill();
  bareProc.kill();
};
process.on('exit', stopServers);
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
for (const c of cases) {
  await load(cmsPort, c, 2);
  await load(barePort, c, 2);
  const turn = Math.max(1, Math.round(duration / rounds));
  const cms: { rps: number; p99: number }[] = [];
  const bare: { rps: number; p99: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    // Alternate who goes first, so neither always meets the machine in the same state.
    if (r % 2 === 0) {
      cms.push(await load(cmsPort, c, turn));
      bare.push(await load(barePort, c, turn));
    } else {
      bare.push(await load(barePort, c, turn));
      cms.push(await load(cmsPort, c, turn));
    }
  }
  const ratios = cms.map((x, i) => x.rps / bare[i].rps);
  const row = {
    cms: median(cms.map((x) => x.rps)), cmsP99: median(cms.map((x) => x.p99)),
    bare: median(bare.map((x) => x.rps)), bareP99: median(bare.map((x) => x.p99)),
    ratio: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios),
  };
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  rows.push(`| ${c.name} | ${Math.round(row.cms)} | ${row.cmsP99} ms | ${Math.round(row.bare)} | ${row.bareP99} ms | ${pct(row.ratio)} (${pct(row.low)}–${pct(row.high)}) |`);
  log(`${c.name}: cms ${Math.round(row.cms)} req/s, ${otherName} ${Math.round(row.bare)} req/s, ratio ${pct(row.ratio)} (rounds: ${ratios.map(pct).join(' ')})`);
}
cmsProc.kill();
bareProc.kill();
await cmsProc.exited;

// Cold start to first answered request, median of 10 (binary only).
let cold = 'n/a (no dist/cms)';
if (useBinary) {
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const port = freePort();
    const start = performance.now();
    const p = Bun.spawn([binary, 'serve', '--port', String(port)], { cwd: dir, env: { ...process.env, NODE_ENV: 'production' }, stdout: 'ignore', stderr: 'ignore' });
    await waitFor(`http://127.0.0.1:${port}/api/cms/users/init`);
    times.push(performance.now() - start);
    p.kill();
    await p.exited;
  }
  times.sort((x, y) => x - y);
  cold = `${((times[4] + times[5]) / 2).toFixed(1)} ms`;
}
const size = useBinary ? `${(fs.statSync(binary).size / 1e6).toFixed(1)} MB` : 'n/a';

log('');
log(`CMS: ${useBinary ? 'dist/cms' : 'from source'}${baseline ? ` vs baseline ${baseline}` : ''} · ${connections} connections · ${duration} s per server per case in ${rounds} interleaved rounds, after a 2 s warm-up · ${total} posts`);
log(`| case | cms req/s | cms p99 | ${otherName} req/s | ${otherName} p99 | cms / ${otherName}, median (range) |`);
log('|---|---|---|---|---|---|');
for (const r of rows) log(r);
log(`cold start to first answered request (median of 10): ${cold}`);
log(`idle RSS after start: ${(idleRss / 1024).toFixed(1)} MB`);
log(`binary size: ${size}`);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
