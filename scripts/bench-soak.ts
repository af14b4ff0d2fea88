/**
 * Memory under a long mixed load (docs/benchmarks.md, "Memory over time"): `dist/cms serve` (else from
 * source) over `--docs` seeded posts, loaded by `--workers` clients doing a mix of reads, lists, creates,
 * updates, deletes, searches, GraphQL and small uploads, with a few realtime streams opening and closing,
 * for `--minutes`. The server's RSS (and its anonymous and file-backed parts) is sampled every
 * `--every` seconds; the slope after the warm-up (the first third, at most 5 minutes) is printed in MB per
 * 10 minutes. Created posts and uploads are deleted again, so the data stays about the same size.
 *   bun scripts/bench-soak.ts [--minutes 30] [--docs 2000] [--workers 4] [--every 10] [--engine sqlite|postgres]
 *                             [--rate 0] [--heap]
 * `--rate N` paces the clients to N requests a second in all (0: as fast as the server answers), so that
 * memory can be read against time at a steady load, apart from how fast a shared machine lets it serve.
 * `--heap` starts the server from source with scripts/bench/heap-census.ts preloaded (a full collection
 * and a count of live objects by type every minute) and ends with the types that grew after the warm-up.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createTestDatabase } from '../test/support/postgres.ts';
import { login, postBody, postsConfig, seedPosts } from './bench/posts.ts';
import { cmsBinary, cmsStart, freePort, guard, launch } from './bench/processes.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    docs: { type: 'string', default: '2000' },
    workers: { type: 'string', default: '4' },
    every: { type: 'string', default: '10' },
    engine: { type: 'string', default: 'sqlite' },
    rate: { type: 'string', default: '0' },
    heap: { type: 'boolean', default: false },
  },
});
const minutes = Number(values.minutes);
const workers = Number(values.workers);
const every = Number(values.every);
const rate = Number(values.rate);
if (values.engine !== 'sqlite' && values.engine !== 'postgres') throw new Error('--engine: sqlite or postgres');
const postgres = values.engine === 'postgres' ? await createTestDatabase() : null;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-soak-'));
const collections = `{
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
}, { slug: 'media', upload: true, access: { read: () => true }, fields: [] }`;
fs.writeFileSync(path.join(dir, 'cms.config.ts'), postsConfig(postgres?.url, collections));
const track = guard(dir, async () => postgres?.drop());
const { getCMS } = await import('../src/local.ts');
await seedPosts(getCMS, dir, Number(values.docs));

const binary = !values.heap && fs.existsSync(cmsBinary);
const port = freePort();
const censusFile = path.join(dir, 'heap-census.jsonl');
const start = cmsStart(port, { cwd: dir, binary });
if (values.heap) {
  start.command.splice(1, 0, '--preload', path.join(import.meta.dir, 'bench/heap-census.ts'));
  start.env = { ...start.env, CMS_HEAP_CENSUS: censusFile };
}
const server = await launch(start, track);
const api = `http://127.0.0.1:${port}/api/cms`;
const auth = { authorization: `Bearer ${await login(api)}` };
const json = { ...auth, 'content-type': 'application/json' };

let requests = 0;
let failures = 0;
let streams = 0;
async function call(url: string, init: RequestInit = {}, expect = [200, 201]): Promise<unknown> {
  const res = await fetch(`${api}${url}`, init);
  requests++;
  const body = await res.text();
  if (!expect.includes(res.status) && ++failures <= 5)
    console.error(`${init.method ?? 'GET'} ${url}: ${res.status} ${body.slice(0, 200)}`);
  return res.headers.get('content-type')?.includes('json') ? JSON.parse(body) : body;
}

const total = Number(values.docs);
const pick = () => 1 + Math.floor(Math.random() * total);
const words = ['lorem', 'ipsum', 'dolor', 'post', 'amet', 'consectetur', 'elit', 'nothingmatches'];
const word = () => words[Math.floor(Math.random() * words.length)];
const created: number[] = [];
const uploaded: number[] = [];
const graphql = `{ Posts(where: { status: { equals: published } }, sort: "-createdAt", limit: 10) { docs { id title views } totalDocs } }`;

/** One operation of the mix, by weight: mostly reads, then writes, searches, GraphQL and uploads. */
const mix: [number, () => Promise<unknown>][] = [
  [20, () => call(`/posts/${pick()}?depth=0`)],
  [15, () => call(`/posts?where[status][equals]=published&sort=-createdAt&limit=20&page=${1 + (pick() % 40)}`)],
  [5, () => call(`/posts?where[views][greater_than]=${pick()}&limit=10&sort=views`)],
  [
    8,
    async () => {
      const doc = (await call('/posts', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: `Soak ${requests}`, body: postBody, status: 'published', views: requests }),
      })) as { doc?: { id: number } };
      if (doc.doc) created.push(doc.doc.id);
    },
  ],
  [
    8,
    () =>
      call(`/posts/${pick()}`, {
        method: 'PATCH',
        headers: json,
        body: JSON.stringify({ views: requests, title: `Updated ${requests}` }),
      }),
  ],
  [6, async () => created.length > 100 && call(`/posts/${created.shift()}`, { method: 'DELETE', headers: auth })],
  [8, () => call(`/posts?search=${encodeURIComponent(`${word()} ${word().slice(0, 3)}`)}&limit=10`)],
  [4, () => call(`/search?q=${word()}&limit=10`)],
  [8, () => call('/graphql', { method: 'POST', headers: json, body: JSON.stringify({ query: graphql }) })],
  [
    2,
    async () => {
      const form = new FormData();
      form.append('file', new File([`%PDF-1.4\n% soak ${requests}\n`.repeat(100)], `soak-${requests}.pdf`));
      const doc = (await call('/media', { method: 'POST', headers: auth, body: form })) as { doc?: { id: number } };
      if (doc.doc) uploaded.push(doc.doc.id);
    },
  ],
  [1, async () => uploaded.length > 20 && call(`/media/${uploaded.shift()}`, { method: 'DELETE', headers: auth })],
];
const weight = mix.reduce((s, [w]) => s + w, 0);
function nextOp(): () => Promise<unknown> {
  let r = Math.random() * weight;
  for (const [w, op] of mix) if ((r -= w) < 0) return op;
  return mix[0][1];
}

/** A realtime stream held open 1–5 s, reading what arrives, then closed by the client. */
async function stream(): Promise<void> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 1000 + Math.random() * 4000);
  try {
    const res = await fetch(`${api}/realtime?topics=posts,media`, { headers: auth, signal: abort.signal });
    requests++;
    streams++;
    const reader = res.body!.getReader();
    while (!(await reader.read()).done);
  } catch {
    // The client's own abort ends it.
  } finally {
    clearTimeout(timer);
  }
}

const started = performance.now();
const endAt = started + minutes * 60_000;
const samples: { min: number; rss: number; anon: number; file: number; requests: number }[] = [];
function sample(): void {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024;
  const s = {
    min: (performance.now() - started) / 60_000,
    rss: kb('VmRSS'),
    anon: kb('RssAnon'),
    file: kb('RssFile'),
    requests,
  };
  samples.push(s);
  console.log(
    `${s.min.toFixed(1).padStart(5)} min  RSS ${s.rss.toFixed(1)} MB (anon ${s.anon.toFixed(1)}, file ${s.file.toFixed(1)})  ${requests} requests, ${streams} streams, ${failures} failures`,
  );
}
sample();
const sampler = setInterval(sample, every * 1000);
const clients = Array.from({ length: workers }, async () => {
  // Each client takes its share of `--rate`: a slot every workers / rate seconds.
  const gap = rate > 0 ? (workers * 1000) / rate : 0;
  let slot = performance.now();
  while (performance.now() < endAt) {
    await nextOp()();
    slot += gap;
    const wait = slot - performance.now();
    if (wait > 0) await Bun.sleep(wait);
  }
});
const streamers = Array.from({ length: 3 }, async () => {
  while (performance.now() < endAt) await stream();
});
await Promise.all([...clients, ...streamers]);
clearInterval(sampler);
sample();
server.kill();
await server.exited;

/** Least-squares slope of `key` against minutes, over the samples after the warm-up, in MB per 10 minutes. */
const warmup = Math.min(5, minutes / 3);
const kept = samples.filter((s) => s.min >= warmup);
function slope(key: 'rss' | 'anon' | 'file'): number {
  const n = kept.length;
  const mx = kept.reduce((a, s) => a + s.min, 0) / n;
  const my = kept.reduce((a, s) => a + s[key], 0) / n;
  const num = kept.reduce((a, s) => a + (s.min - mx) * (s[key] - my), 0);
  const den = kept.reduce((a, s) => a + (s.min - mx) ** 2, 0);
  return den ? (num / den) * 10 : 0;
}
const range = (key: 'rss' | 'anon') =>
  `${Math.min(...kept.map((s) => s[key])).toFixed(1)}–${Math.max(...kept.map((s) => s[key])).toFixed(1)} MB`;
console.log('');
console.log(
  `CMS: ${binary ? 'dist/cms' : 'from source'} on ${postgres ? 'PostgreSQL' : 'SQLite'} · ${values.docs} posts · ${workers} clients + 3 realtime streams · ${minutes} min${rate ? ` paced to ${rate}/s` : ''} · ${requests} requests (${Math.round(requests / (minutes * 60))}/s), ${failures} failures`,
);
console.log(
  `after ${warmup.toFixed(1)} min of warm-up: RSS ${range('rss')}, slope ${slope('rss').toFixed(2)} MB per 10 min (anonymous ${range('anon')}, ${slope('anon').toFixed(2)} MB per 10 min; file-backed ${slope('file').toFixed(2)})`,
);
if (values.heap) heapGrowth();
fs.rmSync(dir, { recursive: true, force: true });
await postgres?.drop();

/** The census after the warm-up against the last one: the heap's size and the types whose count grew most. */
function heapGrowth(): void {
  type Census = { min: number; heapSize: number; objectCount: number; types: Record<string, number> };
  const lines: Census[] = fs
    .readFileSync(censusFile, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const first = lines.find((c) => c.min >= warmup);
  const last = lines.at(-1);
  if (!first || !last || first === last) return console.log('heap census: too few censuses after the warm-up');
  const mb = (n: number) => (n / 2 ** 20).toFixed(1);
  console.log(
    `heap after full collections, ${first.min.toFixed(1)} → ${last.min.toFixed(1)} min: ${mb(first.heapSize)} → ${mb(last.heapSize)} MB, ${first.objectCount} → ${last.objectCount} objects (sizes at each census: ${lines.map((c) => mb(c.heapSize)).join(' ')})`,
  );
  const grown = Object.entries(last.types)
    .map(([type, n]) => [type, n - (first.types[type] ?? 0)] as const)
    .filter(([, d]) => d > 0)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12);
  for (const [type, d] of grown) console.log(`  ${type}: +${d} (${first.types[type] ?? 0} → ${last.types[type]})`);
}
process.exit(failures ? 1 : 0);
