/**
 * Realtime fan-out on one box (docs/benchmarks.md, "Realtime"): a server process (scripts/bench/realtime-server.ts,
 * a read rule per subscriber: editors see their team's posts) and, in this process, `--subscribers` SSE
 * streams spread over `--users` editors. Reports the server's memory per open stream (RSS before and after
 * opening them) and, for `--writes` posts written one at a time, the delay from sending the write to each
 * allowed subscriber's receipt of its event (p50/p99), next to the write's own round trip. Loopback only.
 *
 *   bun scripts/bench-realtime.ts [--subscribers 1000] [--users 50] [--writes 40]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

// Bun's fetch keeps at most 256 requests in flight (BUN_CONFIG_MAX_HTTP_REQUESTS, read at start): an SSE
// stream never ends, so the 257th subscriber and every write after it would wait forever. Run again with room.
const NEEDED = '65000';
if (process.env.BUN_CONFIG_MAX_HTTP_REQUESTS !== NEEDED) {
  const again = Bun.spawn([process.execPath, ...process.argv.slice(1)], {
    env: { ...process.env, BUN_CONFIG_MAX_HTTP_REQUESTS: NEEDED },
    stdio: ['inherit', 'inherit', 'inherit'],
  });
  process.exit(await again.exited);
}

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    users: { type: 'string', default: '50' },
    writes: { type: 'string', default: '40' },
  },
});
const N = Number(values.subscribers);
const USERS = Number(values.users);
const WRITES = Number(values.writes);

const child = Bun.spawn([process.execPath, path.join(import.meta.dir, 'bench/realtime-server.ts'), String(USERS)], {
  stdout: 'pipe',
  stderr: 'inherit',
});
const reader = child.stdout.getReader();
let out = '';
while (!out.includes('\n')) out += new TextDecoder().decode((await reader.read()).value);
const info = JSON.parse(out.slice(out.indexOf('READY ') + 6).split('\n')[0]) as {
  api: string;
  admin: string;
  tokens: string[];
  pid: number;
};
const rssMB = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${info.pid}/status`, 'utf8'))![1]) / 1024;

const sent = new Map<number, number>();
const delays: number[] = [];
let received = 0;
async function subscribe(token: string, team: number) {
  const res = await fetch(`${info.api}/realtime?topics=posts`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`stream: ${res.status}`);
  const body = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await body.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!data) continue;
        const at = performance.now();
        const event = JSON.parse(data) as { doc: { title: string; team: number } };
        if (event.doc.team !== team) throw new Error('a subscriber got a post of another team');
        delays.push(at - sent.get(Number(event.doc.title))!);
        received++;
      }
    }
  })();
}

await Bun.sleep(300);
const before = rssMB();
for (let i = 0; i < N; i++) await subscribe(info.tokens[i % USERS], ((i % USERS) + 2) % 10);
await Bun.sleep(1000);
const after = rssMB();

const writeMs: number[] = [];
let expected = 0;
for (let w = 0; w < WRITES; w++) {
  const team = w % 10;
  for (let i = 0; i < N; i++) if (((i % USERS) + 2) % 10 === team) expected++;
  sent.set(w, performance.now());
  const res = await fetch(`${info.api}/posts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${info.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ title: String(w), team }),
  });
  writeMs.push(performance.now() - sent.get(w)!);
  if (res.status !== 201) throw new Error(`write: ${res.status}`);
  await Bun.sleep(50);
}
const deadline = Date.now() + 10_000;
while (received < expected && Date.now() < deadline) await Bun.sleep(50);

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
console.log(
  `${N} streams over ${USERS} editors (each sees 1 team in 10), ${WRITES} writes, ${received} of ${expected} expected events`,
);
console.log(
  `server RSS ${before.toFixed(0)} MiB -> ${after.toFixed(0)} MiB: ${(((after - before) * 1024) / N).toFixed(1)} KiB per stream`,
);
console.log(`write round trip p50 ${pct(writeMs, 50).toFixed(1)} ms, p99 ${pct(writeMs, 99).toFixed(1)} ms`);
console.log(`send-to-delivery p50 ${pct(delays, 50).toFixed(1)} ms, p99 ${pct(delays, 99).toFixed(1)} ms`);
child.kill('SIGTERM');
await child.exited;
process.exit(0);
