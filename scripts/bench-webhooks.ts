/**
 * Figures for the webhooks note: write latency with 3 webhook targets vs none (same run, interleaved
 * rounds), and deliveries per second to a fast local receiver.  `bun scripts/bench-webhooks.ts [writes]`
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCMS } from '../src/create-cms.ts';
import type { CMS } from '../src/cms.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { flushWebhooks } from '../src/webhooks/start-webhooks.ts';
import { retryDueWebhooks } from '../src/webhooks/retry-due.ts';
import type { UserConfig } from '../src/config/types.ts';

const WRITES = Number(process.argv[2] ?? 2000);
const ROUNDS = 10;
const quiet = { info() {}, warn() {}, error() {} };
const open = { read: () => true, create: () => true, update: () => true, delete: () => true };

// The receiver runs in its own process, as a real one would, so it does not share the CMS's event loop.
const receiverCode = `let n = 0; const s = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: async (r) => { if (r.method === 'GET') return new Response(String(n)); await r.arrayBuffer(); n++; return new Response('ok'); } }); console.log(s.port);`;
const receiverProcess = Bun.spawn([process.execPath, '-e', receiverCode], { stdout: 'pipe' });
const receiverPort = Number(new TextDecoder().decode((await receiverProcess.stdout.getReader().read()).value).trim());
const hook = `http://127.0.0.1:${receiverPort}/hook`;
const received = async () => Number(await (await fetch(hook)).text());

type Instance = { cms: CMS; server: RunningServer; dir: string; url: string };
async function instance(webhooks: UserConfig['webhooks']): Promise<Instance> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-'));
  const cms = await createCMS({
    config: {
      database: path.join(dir, 'data/cms.db'),
      webhooks,
      collections: [
        {
          slug: 'posts',
          access: open,
          fields: [
            { name: 'title', type: 'text' },
            { name: 'body', type: 'textarea' },
            { name: 'status', type: 'select', options: ['draft', 'published'] },
          ],
        },
      ],
    },
    rootDir: dir,
    log: quiet,
  });
  const server = startServer(cms, { port: 0 });
  return { cms, server, dir, url: `${server.url}/api/cms/posts` };
}

const body = JSON.stringify({ title: 'A post', body: 'x'.repeat(500) });
/** `pauseMs` between writes lets the background sends finish, as on a server whose writes are not back to back. */
async function timedWrites(target: Instance, count: number, pauseMs = 0): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    if (pauseMs) await Bun.sleep(pauseMs);
    const started = performance.now();
    const res = await fetch(target.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== 201) throw new Error(`write failed: ${res.status}`);
  }
  return times;
}

const pct = (list: number[], p: number) =>
  [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))];
const fmt = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;

const none = await instance(undefined);
const three = await instance([
  { url: hook },
  { url: hook, secret: 'bench-secret' },
  { url: hook, events: ['create'], collections: ['posts'], headers: { 'x-bench': '1' } },
]);

// Warm up both, then interleave rounds so drift (GC, CPU frequency) hits both sides alike.
await timedWrites(none, 200);
await timedWrites(three, 200);
await flushWebhooks(three.cms);
async function compare(title: string, pauseMs: number, writes: number) {
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    a.push(...(await timedWrites(none, writes / ROUNDS, pauseMs)));
    b.push(...(await timedWrites(three, writes / ROUNDS, pauseMs)));
  }
  await flushWebhooks(three.cms);
  console.log(`write latency over HTTP, ${title}, ${writes} creates each (median / p95 / p99):`);
  console.log(`  no webhooks:        ${fmt(pct(a, 0.5))} / ${fmt(pct(a, 0.95))} / ${fmt(pct(a, 0.99))}`);
  console.log(`  3 webhook targets:  ${fmt(pct(b, 0.5))} / ${fmt(pct(b, 0.95))} / ${fmt(pct(b, 0.99))}`);
  console.log(
    `  ratio (median):     ${(pct(b, 0.5) / pct(a, 0.5)).toFixed(2)}x   ratio (p95): ${(pct(b, 0.95) / pct(a, 0.95)).toFixed(2)}x`,
  );
}
await compare('back to back (sends compete with the next write for the event loop)', 0, WRITES);
await compare('paced 5 ms apart (sends done before the next write)', 5, Math.min(WRITES, 1000));

// Throughput: a burst of writes, then the time until every delivery has reached the receiver.
const DELIVERY_WRITES = Math.min(WRITES, 1000);
const before = await received();
const started = performance.now();
await Promise.all(
  Array.from({ length: DELIVERY_WRITES }, () =>
    fetch(three.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then((r) =>
      r.arrayBuffer(),
    ),
  ),
);
const written = performance.now() - started;
await flushWebhooks(three.cms);
// Beyond MAX_QUEUED_SENDS the burst is left to the job loop; run it as the minute loop would.
let loopRuns = 0;
while ((await retryDueWebhooks(three.cms)).pending > 0 || loopRuns === 0) loopRuns++;
const expected = DELIVERY_WRITES * 3;
const elapsed = (performance.now() - started) / 1000;
const got = (await received()) - before;
const left = (await three.cms.store.get<{ n: number }>('SELECT count(*) AS n FROM "webhook-deliveries"'))!.n;
console.log(
  `deliveries: ${got} of ${expected} (${DELIVERY_WRITES} concurrent creates x 3 targets) in ${elapsed.toFixed(2)} s = ${(got / elapsed).toFixed(0)} deliveries/s`,
);
console.log(
  `  (writes all answered after ${(written / 1000).toFixed(2)} s; job-loop runs needed for the overflow: ${loopRuns}; rows left: ${left})`,
);

for (const target of [none, three]) {
  await target.server.stop();
  fs.rmSync(target.dir, { recursive: true, force: true });
}
receiverProcess.kill();
