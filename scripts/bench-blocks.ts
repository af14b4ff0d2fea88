/**
 * `bun scripts/bench-blocks.ts`: what blocks cost (docs/benchmarks.md, "Blocks").
 *  1. Over HTTP, SQLite: a page whose `layout` holds 40 blocks with 3 relationships each (authors, who
 *     point at a team, so depth 2 reaches two levels), against a flat document of the same stored size,
 *     read at `depth=2` on a server with the response cache and one without, and written (PATCH of the
 *     same value), interleaved in short rounds like the other HTTP benchmarks; then the uncached reads'
 *     CPU time per request, from /proc (the flat one's share of the page's is the rate on a quiet machine),
 *     beside a bare Bun.serve answering the same bytes with the least work (bench/bare-blocks-server.ts);
 *     `--baseline DIR` adds another checkout's uncached server (from its source, as this one then runs) on
 *     the same file to those CPU rounds.
 *  2. `where` inside blocks over `--pages` pages on `--engine`: `layout.blockType equals` a block that 1 page
 *     in 100 has, and `layout.text like` a word that 1 page in 50 has, timed over loopback HTTP (p50/p99).
 *  3. The uncached `depth=2` reads of part 1 in this one process (the request handler without sockets, and the
 *     Local API), page against flat, in CPU time per read, and what serializing each answer costs alone
 *     (`--parts 3`; see inProcess).
 * Usage: bun scripts/bench-blocks.ts [--duration 10] [--rounds 5] [--connections 20] [--pages 10000]
 *        [--queries 100] [--engine sqlite|postgres] [--parts 1,2] [--baseline DIR]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bareStart, cmsBinary, cmsStart, freePort, guard, launch } from './bench/processes.ts';
import { compare, median, type Target } from './bench/rounds.ts';
import { cpuPerRequest } from './bench/cpu-rounds.ts';
import { getCMS, localAPI } from '../src/local.ts';
import { manualClock } from '../src/clock.ts';
import { startTestServer } from '../test/harness.ts';
import { createCMS } from '../src/create-cms.ts';
import { createRequestHandler } from '../src/http/request-handler.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    pages: { type: 'string', default: '10000' },
    queries: { type: 'string', default: '100' },
    engine: { type: 'string', default: 'sqlite' },
    parts: { type: 'string', default: '1,2' },
    baseline: { type: 'string' },
  },
});
const o = {
  duration: Number(values.duration),
  rounds: Math.max(1, Number(values.rounds)),
  connections: Number(values.connections),
};
const parts = new Set(values.parts.split(','));
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;

/** The heavy page and the flat document of the same stored size, in a fresh folder (its config beside them). */
async function seedHeavyPage() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-blocks-'));
  const track = guard(dir);
  const open = `access: { read: () => true, update: () => true }`;
  const rel = (name: string) => `{ name: '${name}', type: 'relationship', relationTo: 'authors' }`;
  fs.writeFileSync(
    path.join(dir, 'cms.config.ts'),
    `export default { collections: [
    { slug: 'teams', ${open}, fields: [{ name: 'name', type: 'text' }] },
    { slug: 'authors', ${open}, fields: [{ name: 'name', type: 'text' }, { name: 'team', type: 'relationship', relationTo: 'teams' }] },
    { slug: 'pages', ${open}, fields: [{ name: 'title', type: 'text' }, { name: 'layout', type: 'blocks', blocks: [
      { slug: 'cards', fields: [{ name: 'heading', type: 'text' }, ${rel('first')}, ${rel('second')}, ${rel('third')}] } ] }] },
    { slug: 'flats', ${open}, fields: [{ name: 'title', type: 'text' }, { name: 'body', type: 'textarea' }] },
  ] };\n`,
  );
  fs.writeFileSync(
    path.join(dir, 'cms.no-cache.config.ts'),
    `import config from './cms.config.ts';\nexport default { ...config, cache: false };\n`,
  );
  const clock = manualClock(Date.parse('2026-01-01T00:00:00Z'));
  const cms = await getCMS({
    config: path.join(dir, 'cms.config.ts'),
    clock,
    log: { info() {}, warn: console.warn, error: console.error },
  });
  type Id = string | number;
  const teams: Id[] = [];
  for (let i = 0; i < 5; i++)
    teams.push((await cms.create({ collection: 'teams', data: { name: `Team ${i}` } })).id as Id);
  const authors: Id[] = [];
  for (let i = 0; i < 30; i++)
    authors.push(
      (await cms.create({ collection: 'authors', data: { name: `Author ${i}`, team: teams[i % teams.length] } }))
        .id as Id,
    );
  const layout = Array.from({ length: 40 }, (_, i) => ({
    blockType: 'cards',
    heading: `Cards ${i}`,
    first: authors[i % 30],
    second: authors[(i + 7) % 30],
    third: authors[(i + 13) % 30],
  }));
  const page = (await cms.create({ collection: 'pages', data: { title: 'Heavy page', layout } })) as { id: Id };
  const stored = Buffer.byteLength(JSON.stringify(await cms.findByID({ collection: 'pages', id: page.id, depth: 0 })));
  const flatDoc = (await cms.create({ collection: 'flats', data: { title: 'Flat', body: '' } })) as { id: Id };
  const base = Buffer.byteLength(JSON.stringify(await cms.findByID({ collection: 'flats', id: flatDoc.id, depth: 0 })));
  const body = 'lorem ipsum '.repeat(Math.ceil((stored - base) / 12)).slice(0, Math.max(0, stored - base));
  await cms.update({ collection: 'flats', id: flatDoc.id, data: { body } });
  const pageLayout = (await cms.findByID({ collection: 'pages', id: page.id, depth: 0 })).layout;
  await cms.close();
  return { dir, track, page, flatDoc, stored, body, pageLayout };
}

async function heavyPage(): Promise<void> {
  const { dir, track, page, flatDoc, stored, body, pageLayout } = await seedHeavyPage();

  // Against a baseline both run from source, so that only the trees differ.
  const useBinary = fs.existsSync(cmsBinary) && !values.baseline;
  const cachedPort = freePort();
  const uncachedPort = freePort();
  const noCache = path.join(dir, 'cms.no-cache.config.ts');
  const servers = [
    await launch(cmsStart(cachedPort, { cwd: dir, binary: useBinary }), track),
    await launch(cmsStart(uncachedPort, { cwd: dir, binary: useBinary, config: noCache }), track),
  ];
  // The floor: a bare Bun.serve answering the same two reads from the same file (bench/bare-blocks-server.ts).
  const barePort = freePort();
  servers.push(
    await launch(
      bareStart('bare-blocks-server.ts', path.join(dir, 'data/cms.db'), barePort, `/flats/${flatDoc.id}`),
      track,
    ),
  );
  const baselinePort = freePort();
  if (values.baseline) {
    const start = cmsStart(baselinePort, { cwd: dir, binary: false, config: noCache });
    start.command = [
      process.execPath,
      path.join(path.resolve(values.baseline), 'src/cli/main.ts'),
      ...start.command.slice(2),
    ];
    servers.push(await launch(start, track));
  }
  const bareRead = (slug: string, id: unknown): Target => ({ port: barePort, path: `/${slug}/${id}` });
  const read = (port: number, slug: string, id: unknown): Target => ({ port, path: `/api/cms/${slug}/${id}?depth=2` });
  const write = (port: number, slug: string, id: unknown, data: unknown): Target => ({
    port,
    path: `/api/cms/${slug}/${id}`,
    method: 'PATCH',
    body: JSON.stringify(data),
    headers: { 'content-type': 'application/json' },
  });
  const answer = async (t: Target) =>
    (await (await fetch(`http://127.0.0.1:${t.port}${t.path}`)).arrayBuffer()).byteLength;
  const deep = (await (
    await fetch(`http://127.0.0.1:${cachedPort}${read(cachedPort, 'pages', page.id).path}`)
  ).json()) as { layout: { first: { team: { name?: string } } }[] };
  if (deep.layout.length !== 40 || !deep.layout[0]!.first.team.name)
    throw new Error('depth=2 did not populate the authors and their teams');
  const sizes = {
    page: await answer(read(cachedPort, 'pages', page.id)),
    flat: await answer(read(cachedPort, 'flats', flatDoc.id)),
  };
  const bytesOf = async (t: Target) =>
    Buffer.from(await (await fetch(`http://127.0.0.1:${t.port}${t.path}`)).arrayBuffer());
  const sameAsBare = (
    await Promise.all(
      [
        [read(uncachedPort, 'pages', page.id), bareRead('pages', page.id)],
        [read(uncachedPort, 'flats', flatDoc.id), bareRead('flats', flatDoc.id)],
      ].map(async ([ours, bare]) => (await bytesOf(ours!)).equals(await bytesOf(bare!))),
    )
  ).every(Boolean);

  const cases: [string, Target, Target][] = [
    ['read depth=2, cache on', read(cachedPort, 'pages', page.id), read(cachedPort, 'flats', flatDoc.id)],
    ['read depth=2, cache off', read(uncachedPort, 'pages', page.id), read(uncachedPort, 'flats', flatDoc.id)],
    [
      'write (PATCH, same value)',
      write(uncachedPort, 'pages', page.id, { layout: pageLayout }),
      write(uncachedPort, 'flats', flatDoc.id, { body }),
    ],
  ];
  const rows: string[] = [];
  for (const [label, a, b] of cases) {
    const m = await compare(a, b, o);
    rows.push(
      `| ${label} | ${Math.round(m.a.rps)} | ${m.a.p99} ms | ${Math.round(m.b.rps)} | ${m.b.p99} ms | ${pct(m.ratio)} (${pct(m.low)}–${pct(m.high)}) |`,
    );
    console.log(
      `${label}: blocks ${Math.round(m.a.rps)} req/s, flat ${Math.round(m.b.rps)} req/s, ratio ${pct(m.ratio)} (rounds: ${m.ratios.map(pct).join(' ')})`,
    );
  }
  // CPU time per request from /proc: on a shared machine it moves far less than throughput does.
  const measured = [
    { name: 'page', pid: servers[1]!.pid, target: read(uncachedPort, 'pages', page.id) },
    { name: 'flat', pid: servers[1]!.pid, target: read(uncachedPort, 'flats', flatDoc.id) },
  ];
  measured.push(
    { name: 'bare page', pid: servers[2]!.pid, target: bareRead('pages', page.id) },
    { name: 'bare flat', pid: servers[2]!.pid, target: bareRead('flats', flatDoc.id) },
  );
  if (values.baseline)
    measured.push(
      { name: 'baseline page', pid: servers[3]!.pid, target: read(baselinePort, 'pages', page.id) },
      { name: 'baseline flat', pid: servers[3]!.pid, target: read(baselinePort, 'flats', flatDoc.id) },
    );
  const cpu = await cpuPerRequest(measured, {
    seconds: Math.max(1, Math.round(o.duration / o.rounds)),
    rounds: o.rounds,
    connections: o.connections,
  });
  const sides: [string, string][] = [
    ['', ''],
    ['bare ', ` (bare server, ${sameAsBare ? 'the same bytes' : 'NOT the same bytes'})`],
    ['baseline ', ' (baseline)'],
  ];
  const cpuRows = sides
    .filter(([side]) => cpu.has(`${side}page`))
    .map(([side, label]) => {
      const pageCpu = cpu.get(`${side}page`)!.cpuMicros;
      const flatCpu = cpu.get(`${side}flat`)!.cpuMicros;
      console.log(
        `${side || 'this tree: '}CPU per request, cache off: blocks ${pageCpu.toFixed(0)} µs, flat ${flatCpu.toFixed(0)} µs`,
      );
      return `| read depth=2, cache off: CPU per request${label} | ${pageCpu.toFixed(0)} µs | | ${flatCpu.toFixed(0)} µs | | ${pct(flatCpu / pageCpu)} |`;
    });
  for (const proc of servers) proc.kill();
  await Promise.all(servers.map((proc) => proc.exited));
  fs.rmSync(dir, { recursive: true, force: true });

  console.log('');
  console.log(
    `CMS: ${useBinary ? 'dist/cms' : 'from source'} on SQLite · ${o.connections} connections · ${o.duration} s per side per case in ${o.rounds} interleaved rounds, after a 2 s warm-up`,
  );
  console.log(
    `page: 40 blocks × 3 relationships (30 authors, each with a team), ${kB(stored)} stored; flat: one textarea, ${kB(stored)} stored; depth=2 answers ${kB(sizes.page)} and ${kB(sizes.flat)}`,
  );
  console.log('| case | blocks page req/s | p99 | flat req/s | p99 | blocks / flat, median (range) |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  for (const r of cpuRows) console.log(r);
}

async function whereInBlocks(): Promise<void> {
  const engine = values.engine === 'postgres' ? 'postgres' : 'sqlite';
  const count = Number(values.pages);
  const queries = Number(values.queries);
  // The response cache is off: every request runs the query.
  const t = await startTestServer(
    {
      cache: false,
      collections: [
        {
          slug: 'pages',
          fields: [
            { name: 'title', type: 'text' },
            {
              name: 'layout',
              type: 'blocks',
              blocks: [
                { slug: 'hero', fields: [{ name: 'heading', type: 'text' }] },
                { slug: 'content', fields: [{ name: 'text', type: 'textarea' }] },
                {
                  slug: 'cta',
                  fields: [
                    { name: 'label', type: 'text' },
                    { name: 'url', type: 'text' },
                  ],
                },
              ],
            },
          ],
        },
      ],
    },
    { engine },
  );
  const admin = await t.user('admin');
  const local = localAPI(t.cms);
  const words = 'harbour lantern meadow copper violet thunder orchard granite willow ember falcon river quartz'.split(
    ' ',
  );
  const seedStart = performance.now();
  for (let i = 0; i < count; i++) {
    const text =
      Array.from({ length: 40 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ') +
      (i % 50 === 0 ? ' lighthouse' : '');
    const layout: Record<string, unknown>[] = [
      { blockType: 'hero', heading: `Page ${i}` },
      { blockType: 'content', text },
      { blockType: 'content', text: words[i % words.length]! },
    ];
    if (i % 100 === 0) layout.push({ blockType: 'cta', label: 'Sign up', url: '/join' });
    await local.create({ collection: 'pages', data: { title: `Page ${i}`, layout } });
    if (i % 1000 === 0) process.stderr.write(`\rseeded ${i} of ${count}`);
  }
  const seeded = (performance.now() - seedStart) / 1000;
  process.stderr.write('\n');
  const time = async (url: string) => {
    const ms: number[] = [];
    let total = 0;
    for (let i = 0; i < queries; i++) {
      const start = performance.now();
      const res = await t.request('GET', url, { token: admin.token });
      ms.push(performance.now() - start);
      if (res.status !== 200) throw new Error(`${url}: ${res.status} ${res.text}`);
      total = res.body.totalDocs;
    }
    ms.sort((a, b) => a - b);
    return { p50: median(ms), p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))]!, total };
  };
  const cases: [string, string][] = [
    [
      '`where[layout.blockType][equals]=cta` (1 page in 100)',
      '/pages?where[layout.blockType][equals]=cta&limit=10&depth=0',
    ],
    [
      '`where[layout.text][like]=lighthouse` (1 page in 50)',
      '/pages?where[layout.text][like]=lighthouse&limit=10&depth=0',
    ],
    [
      '`where[title][equals]=Page 4321` (top-level column, for scale)',
      `/pages?where[title][equals]=${encodeURIComponent('Page 4321')}&limit=10&depth=0`,
    ],
  ];
  const rows: string[] = [];
  for (const [label, url] of cases) {
    const r = await time(url);
    rows.push(`| ${label} | ${r.total} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms |`);
  }
  await t.stop();
  console.log('');
  console.log(
    `engine ${engine}: ${count} pages of 3–4 blocks (seeded in ${seeded.toFixed(0)} s through the Local API), ${queries} requests per case over loopback HTTP, limit 10`,
  );
  console.log('| query | matches | p50 | p99 |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(r);
}

/**
 * Part 3: the uncached `depth=2` reads in this one process, no sockets: the request handler the server runs
 * (`cache: false`), and the Local API's findByID, the page against the flat document in alternating rounds,
 * timed in CPU (process.cpuUsage), which a shared machine disturbs far less than throughput. Then the floor:
 * what serializing each answer costs on its own (`JSON.stringify`, and with the UTF-8 bytes and the ETag
 * hash the handler adds).
 */
type Reads = { label: string; page: () => Promise<unknown>; flat: () => Promise<unknown> };

async function inProcess(): Promise<void> {
  const { dir, page, flatDoc } = await seedHeavyPage();
  process.chdir(dir);
  const cms = await createCMS({ configPath: path.join(dir, 'cms.no-cache.config.ts'), dev: false });
  const handle = createRequestHandler(cms, { logFormat: 'off', idleTimeout: 10 });
  const connection = { requestIP: () => ({ address: '127.0.0.1', family: 'IPv4', port: 1 }), timeout() {} };
  const local = localAPI(cms);
  const over = (slug: string, id: unknown) => async () => {
    const res = await handle(new Request(`http://localhost/api/cms/${slug}/${id}?depth=2`), connection as never);
    if (res.status !== 200) throw new Error(`${slug}: ${res.status}`);
    await res.arrayBuffer();
  };
  const cases: Reads[] = [
    { label: 'request handler, depth=2', page: over('pages', page.id), flat: over('flats', flatDoc.id) },
    {
      label: 'Local API findByID, depth 2',
      page: () => local.findByID({ collection: 'pages', id: page.id, depth: 2 }),
      flat: () => local.findByID({ collection: 'flats', id: flatDoc.id, depth: 2 }),
    },
  ];
  const perCall = async (run: () => Promise<unknown>, calls: number) => {
    const before = process.cpuUsage();
    for (let i = 0; i < calls; i++) await run();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / calls;
  };
  const calls = Math.max(200, o.duration * 200);
  const rows: string[] = [];
  for (const { label, page: pageRead, flat: flatRead } of cases) {
    await perCall(pageRead, 300);
    await perCall(flatRead, 300);
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < o.rounds; r++) {
      a.push(await perCall(pageRead, calls));
      b.push(await perCall(flatRead, calls));
    }
    const pageCpu = median(a);
    const flatCpu = median(b);
    rows.push(`| ${label} | ${pageCpu.toFixed(0)} µs | ${flatCpu.toFixed(0)} µs | ${pct(flatCpu / pageCpu)} |`);
  }
  const floor = await serializationFloor(cases[1]!, perCall, calls);
  await cms.close();
  fs.rmSync(dir, { recursive: true, force: true });
  console.log('');
  console.log(`in one process, ${o.rounds} alternating rounds of ${calls} reads per side, median CPU per read`);
  console.log('| read, response cache off | blocks page | flat | flat / blocks page |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log(
    `| serializing the answer: JSON.stringify | ${floor.page.json.toFixed(1)} µs | ${floor.flat.json.toFixed(1)} µs | |`,
  );
  console.log(
    `| serializing the answer: + UTF-8 bytes, ETag hash | ${floor.page.all.toFixed(1)} µs | ${floor.flat.all.toFixed(1)} µs | |`,
  );
}

/** CPU per serialization of the two answers (this tree's Local API reads), as the handler does it, in alternating rounds. */
async function serializationFloor(
  reads: Reads,
  perCall: (run: () => Promise<unknown>, calls: number) => Promise<number>,
  calls: number,
) {
  const encoder = new TextEncoder();
  const docs = { page: await reads.page(), flat: await reads.flat() };
  const ways = {
    json: (doc: unknown) => async () => JSON.stringify(doc),
    all: (doc: unknown) => async () => Bun.hash(encoder.encode(JSON.stringify(doc))),
  };
  const times = {
    page: { json: [] as number[], all: [] as number[] },
    flat: { json: [] as number[], all: [] as number[] },
  };
  for (const side of ['page', 'flat'] as const)
    for (const way of ['json', 'all'] as const) await perCall(ways[way](docs[side]), calls);
  for (let r = 0; r < o.rounds * 3; r++)
    for (const way of ['json', 'all'] as const)
      for (const side of ['page', 'flat'] as const) times[side][way].push(await perCall(ways[way](docs[side]), calls));
  const medians = (t: { json: number[]; all: number[] }) => ({ json: median(t.json), all: median(t.all) });
  return { page: medians(times.page), flat: medians(times.flat) };
}

if (parts.has('1')) await heavyPage();
if (parts.has('2')) await whereInBlocks();
if (parts.has('3')) await inProcess();
process.exit(0);
