/**
 * `bun scripts/bench-read-cpu.ts`: CPU per uncached read by id in process, without a socket, the cases
 * taking turns in short batches so that a shared machine disturbs them alike: the request handler Bun.serve
 * calls (src/http/request-handler.ts) with the response cache off, the Local API's `findByID` on the same
 * instance, and the bare read (the prepared `SELECT` and `Response.json` of the row, as
 * `scripts/bench/bare-server.ts` answers, from a `Request` as Bun.serve hands it one) on the same file.
 * `--baseline DIR` adds another checkout's request handler (its source) over the same file. User + system
 * time of the process around each batch (the garbage collector's and compiler's threads included), and of
 * the JavaScript thread alone (steadier).
 *
 *   bun scripts/bench-read-cpu.ts [--batches 60] [--calls 500] [--docs 2000] [--baseline DIR] [--only TEXT] [--layers]
 *
 * `--layers` adds the steps in between: the Elysia app without the handler around it (`app.handle`), and
 * `findByID` with the JSON answer `Response.json` makes of it, from a `Request` made the same way.
 * `--only TEXT` keeps the cases whose label holds it (`--only 'handler, this'` under `bun --cpu-prof-md`
 * profiles the handler alone).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import { benchRequests, postsConfig, seedPosts } from './bench/posts.ts';
import { median } from './bench/rounds.ts';
import { getCMS } from '../src/local.ts';

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '60' },
    calls: { type: 'string', default: '500' },
    docs: { type: 'string', default: '2000' },
    baseline: { type: 'string' },
    only: { type: 'string' },
    layers: { type: 'boolean', default: false },
    'seed-into': { type: 'string' },
  },
});
const layers = values.layers;
const total = Number(values.docs);
const calls = Number(values.calls);
// The seed runs in a process of its own, so that a CPU profile of this one holds the reads alone.
if (values['seed-into']) {
  await seedPosts(getCMS, values['seed-into'], total);
  process.exit(0);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-read-cpu-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
fs.writeFileSync(path.join(dir, 'cms.config.ts'), postsConfig());
const seeding = Bun.spawnSync([process.execPath, import.meta.path, '--docs', String(total), '--seed-into', dir], {
  stdout: 'inherit',
  stderr: 'inherit',
});
if (seeding.exitCode !== 0) throw new Error('seeding failed');
const configPath = path.join(dir, 'cms.no-cache.config.ts');
fs.writeFileSync(configPath, `import config from './cms.config.ts';\nexport default { ...config, cache: false };\n`);
const quiet = { info() {}, warn() {}, error: console.error };

const { read } = benchRequests(total);
const url = `http://127.0.0.1:3000/api/cms${read}`;
const id = Number(read.slice('/posts/'.length, read.indexOf('?')));
const connection = { requestIP: () => ({ address: '127.0.0.1', family: 'IPv4', port: 40000 }), timeout() {} };

type Case = [label: string, run: () => Promise<unknown>];
/** A checkout's request handler and Local API over the seeded file, as `cms serve` builds them. */
async function casesOf(root: string, name: string): Promise<Case[]> {
  const { createCMS } = await import(path.join(root, 'src/create-cms.ts'));
  const { createRequestHandler } = await import(path.join(root, 'src/http/request-handler.ts'));
  const { createApp } = await import(path.join(root, 'src/http/app.ts'));
  const { localAPI } = await import(path.join(root, 'src/local.ts'));
  const cms = await createCMS({ configPath, rootDir: dir, log: quiet });
  const handle = createRequestHandler(cms, { logFormat: 'off', idleTimeout: 10 });
  const app = createApp(cms);
  const local = localAPI(cms);
  const answered = async (response: Response) => {
    if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  return [
    [`request handler, ${name}`, async () => answered(await handle(new Request(url), connection))],
    // The same without the handler's own steps: the app's routing, the route wrapper and the read.
    ...(layers
      ? ([[`the app alone, ${name}`, async () => answered(await app.handle(new Request(url)))]] as Case[])
      : []),
    [`findByID, ${name}`, () => local.findByID({ collection: 'posts', id, depth: 0 })],
    ...(layers
      ? ([
          [
            `findByID + JSON, ${name}`,
            async () => {
              new Request(url);
              await Response.json(await local.findByID({ collection: 'posts', id, depth: 0 })).arrayBuffer();
            },
          ],
        ] as Case[])
      : []),
  ];
}

// The bare read, as the bare server answers it: the id from the URL, the row, its JSON.
const bare = new Database(path.join(dir, 'data/cms.db'), { strict: true });
const one = bare.query<Record<string, unknown>, [number]>('SELECT * FROM "posts" WHERE "id" = ?');
const bareRead = async () => {
  const pathname = new URL(new Request(url).url).pathname;
  const r = one.get(Number(pathname.slice('/api/cms/posts/'.length)))!;
  const doc = { id: r.id, title: r.title, body: r.body, status: r.status, views: r.views };
  await Response.json({ ...doc, createdAt: r.createdAt, updatedAt: r.updatedAt }).arrayBuffer();
};

const all: Case[] = [
  ...(await casesOf(path.join(import.meta.dir, '..'), 'this tree')),
  ...(values.baseline ? await casesOf(path.resolve(values.baseline), 'baseline') : []),
  ['bare read', bareRead],
];
const cases = all.filter(([label]) => !values.only || label.includes(values.only));

/** µs of CPU per call, of the process and of the JavaScript thread. */
async function batch(run: () => Promise<unknown>): Promise<[number, number]> {
  const start = process.cpuUsage();
  const startThread = process.threadCpuUsage();
  for (let i = 0; i < calls; i++) await run();
  const used = process.cpuUsage(start);
  const usedThread = process.threadCpuUsage(startThread);
  return [(used.user + used.system) / calls, (usedThread.user + usedThread.system) / calls];
}

for (const [, run] of cases) await batch(run);
const figures = new Map<string, number[]>(cases.map(([label]) => [label, []]));
const onThread = new Map<string, number[]>(cases.map(([label]) => [label, []]));
for (let b = 0; b < Number(values.batches); b++)
  for (const [label, run] of b % 2 ? [...cases].reverse() : cases) {
    const [all, thread] = await batch(run);
    figures.get(label)!.push(all);
    onThread.get(label)!.push(thread);
  }

// The fastest tenth of the batches is the least disturbed by other work: the cost of the path itself.
const fastTenth = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 10)]!;
console.log(`${values.batches} batches of ${calls} uncached reads by id per case, ${total} posts; µs CPU per call`);
for (const [title, of] of [
  ['process', figures],
  ['JavaScript thread', onThread],
] as const) {
  console.log(title);
  const bareFigures = of.get('bare read');
  for (const [label, xs] of of) {
    const [m, f] = [median(xs), fastTenth(xs)];
    const ofBare = (a: number, b: number) => (bareFigures ? ` (bare / this ${((a / b) * 100).toFixed(0)}%)` : '');
    console.log(
      `  ${label.padEnd(28)} median ${m.toFixed(1).padStart(6)} µs${ofBare(median(bareFigures ?? [1]), m)}, fastest tenth ${f.toFixed(1).padStart(6)} µs${ofBare(fastTenth(bareFigures ?? [1]), f)}`,
    );
  }
}
process.exit(0);
