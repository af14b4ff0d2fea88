/**
 * Realtime fan-out on one box (docs/benchmarks.md, "Realtime"): a server process (scripts/bench/realtime-server.ts,
 * a read rule per subscriber: editors see their team's posts) and `--clients` subscriber processes holding
 * `--subscribers` SSE streams between them, spread over `--users` editors in `--teams` teams (`--teams 1`:
 * every stream gets every change). Reports the server's memory per open stream (RSS growth after a full
 * collection, divided by the streams) and, for `--writes` posts written one at a time (each once the last
 * one reached every stream), the delay from the change's commit to each allowed stream's receipt of its
 * event (p50/p99, and the last stream's), next to the delay from sending the write. Loopback only.
 *
 * `--bare` runs the same against a bare `Bun.serve` writing the same blocks to the same streams: the floor.
 *
 *   bun scripts/bench-realtime.ts [--subscribers 1000] [--users 50] [--teams 10] [--writes 40] [--clients 1] [--bare]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

// Bun's fetch keeps at most 256 requests in flight (BUN_CONFIG_MAX_HTTP_REQUESTS, read at start): an SSE
// stream never ends, so the 257th subscriber would wait forever. Run again with room.
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
    teams: { type: 'string', default: '10' },
    writes: { type: 'string', default: '40' },
    clients: { type: 'string', default: '1' },
    // The same streams and writes against a bare Bun.serve (scripts/bench/realtime-bare.ts): the floor.
    bare: { type: 'boolean', default: false },
    // Internal: this process is one of the subscriber processes, holding streams [from, to).
    role: { type: 'string', default: 'main' },
    from: { type: 'string', default: '0' },
    to: { type: 'string', default: '0' },
  },
});
const N = Number(values.subscribers);
const USERS = Number(values.users);
const TEAMS = Number(values.teams);
const WRITES = Number(values.writes);
const CLIENTS = Number(values.clients);
type Info = { api: string; admin: string; editors: { id: number; token: string }[]; pid: number };

/** Wall clock with sub-millisecond resolution, comparable between the processes of one box. */
const now = () => performance.timeOrigin + performance.now();

/**
 * CPU time (ms) a process has used so far, in its own code (user) and in the kernel (system, where each
 * stream's write to its socket goes): the figures a busy box does not distort.
 */
function cpuMs(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [utime, stime] = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 13)
    .map(Number);
  // Clock ticks of 10 ms (CLK_TCK is 100 on Linux).
  return { user: utime * 10, system: stime * 10 };
}

/** The lines a process prints, as they come. */
async function* lines(stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      yield buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
    }
  }
}

/** A process's output lines, waited for by prefix. */
function follow(stream: ReadableStream<Uint8Array>) {
  const waiting: { prefix: string; resolve(rest: string): void }[] = [];
  const seen: string[] = [];
  void (async () => {
    for await (const line of lines(stream)) {
      const i = waiting.findIndex((w) => line.startsWith(w.prefix));
      if (i >= 0) waiting.splice(i, 1)[0].resolve(line);
      else seen.push(line);
    }
  })();
  return {
    seen,
    next(prefix: string): Promise<string> {
      const i = seen.findIndex((l) => l.startsWith(prefix));
      if (i >= 0) return Promise.resolve(seen.splice(i, 1)[0].slice(prefix.length));
      return new Promise((resolve) => waiting.push({ prefix, resolve: (line) => resolve(line.slice(prefix.length)) }));
    },
  };
}

if (values.role === 'subscribers') await subscribers();
else await main();

/** One subscriber process: opens its streams, prints `DONE <w>` once write w reached all of them, then reports. */
async function subscribers() {
  const info = JSON.parse(process.env.BENCH_REALTIME_INFO!) as Info;
  const from = Number(values.from);
  const to = Number(values.to);
  const receipts: number[] = [];
  /** Each event's data line and the team of the stream that got it, checked at the end. */
  const events: (string | number)[] = [];
  const TITLE = '"title":"';
  const got = new Map<number, number>();
  const teamOf = (i: number) => info.editors[i % USERS].id % TEAMS;
  const expectedByTeam = new Map<number, number>();
  for (let i = from; i < to; i++) expectedByTeam.set(teamOf(i), (expectedByTeam.get(teamOf(i)) ?? 0) + 1);
  const api = new URL(info.api);
  // Plain sockets rather than fetch: the stream's bytes reach this process with the least work of its own,
  // so the figures are the server's. One event block is one write on the server, read whole here.
  const subscribe = (i: number) =>
    new Promise<void>((opened, failed) => {
      const team = teamOf(i);
      let buffer = '';
      let head = true;
      const decoder = new TextDecoder();
      void Bun.connect({
        hostname: api.hostname,
        port: Number(api.port),
        socket: {
          open(socket) {
            socket.write(
              `GET ${api.pathname}/realtime?topics=posts HTTP/1.1\r\nhost: ${api.host}\r\n` +
                `authorization: Bearer ${info.editors[i % USERS].token}\r\n\r\n`,
            );
          },
          data(_socket, bytes) {
            const at = now();
            buffer += decoder.decode(bytes, { stream: true });
            if (head) {
              const end = buffer.indexOf('\r\n\r\n');
              if (end < 0) return;
              if (!buffer.startsWith('HTTP/1.1 200')) return failed(new Error(`stream: ${buffer.slice(0, 200)}`));
              head = false;
              buffer = buffer.slice(end + 4);
              opened();
            }
            let end: number;
            while ((end = buffer.indexOf('\n\n')) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const start = block.indexOf('data: ');
              if (start < 0) continue;
              // Only the write's number now; each event is parsed and checked once the writes are done.
              const data = block.slice(start + 6);
              const title = data.indexOf(TITLE) + TITLE.length;
              const w = Number.parseInt(data.slice(title, data.indexOf('"', title)), 10);
              receipts.push(w, at);
              events.push(data, team);
              const count = (got.get(w) ?? 0) + 1;
              got.set(w, count);
              if (count === expectedByTeam.get(team)) console.log(`DONE ${w}`);
            }
          },
          close() {
            if (head) failed(new Error('stream closed before its answer'));
          },
        },
      }).catch(failed);
    });
  for (let i = from; i < to; i++) await subscribe(i);
  console.log('OPEN');
  for await (const line of console) {
    if (line.trim() !== 'report') continue;
    for (let i = 0; i < events.length; i += 2) {
      const event = JSON.parse(events[i] as string) as { doc: { title: string; team: number } };
      if (event.doc.team !== events[i + 1]) throw new Error('a subscriber got a post of another team');
      if (Number(event.doc.title) !== receipts[i]) throw new Error('an event was read wrong');
    }
    console.log(`REPORT ${JSON.stringify(receipts)}`);
    process.exit(0);
  }
}

async function main() {
  const server = Bun.spawn(
    [
      process.execPath,
      // BENCH_SERVER_FLAGS: flags for the server's runtime, e.g. `--cpu-prof-md --cpu-prof-dir=/tmp/prof`.
      ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []),
      path.join(import.meta.dir, values.bare ? 'bench/realtime-bare.ts' : 'bench/realtime-server.ts'),
      String(USERS),
      String(N),
      String(TEAMS),
    ],
    { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' },
  );
  const out = follow(server.stdout);
  const info = JSON.parse(await out.next('READY ')) as Info;
  const rss = async () => {
    server.stdin.write('gc\n');
    server.stdin.flush();
    return Number(await out.next('RSS '));
  };
  const commits: number[] = [];
  void (async () => {
    for (;;) commits.push(Number(await out.next('COMMIT ')));
  })();

  await Bun.sleep(300);
  const before = await rss();
  const per = Math.ceil(N / CLIENTS);
  const clients: {
    child: Bun.Subprocess<'pipe', 'pipe', 'inherit'>;
    out: ReturnType<typeof follow>;
    from: number;
    to: number;
  }[] = [];
  for (let c = 0; c < CLIENTS; c++) {
    const from = c * per;
    const to = Math.min(N, from + per);
    const child = Bun.spawn(
      [
        process.execPath,
        import.meta.path,
        '--role',
        'subscribers',
        '--from',
        String(from),
        '--to',
        String(to),
        '--users',
        String(USERS),
        '--teams',
        String(TEAMS),
      ],
      {
        stdin: 'pipe',
        stdout: 'pipe',
        stderr: 'inherit',
        env: { ...process.env, BENCH_REALTIME_INFO: JSON.stringify(info) },
      },
    );
    clients.push({ child, out: follow(child.stdout), from, to });
  }
  const opening = performance.now();
  await Promise.all(clients.map((c) => c.out.next('OPEN')));
  const openMs = performance.now() - opening;
  await Bun.sleep(1000);
  const after = await rss();

  const teamOf = (i: number) => info.editors[i % USERS].id % TEAMS;
  const sent: number[] = [];
  const writeMs: number[] = [];
  let expected = 0;
  let missing = 0;
  const cpuBefore = cpuMs(info.pid);
  const clientCpu = () =>
    clients.reduce((sum, c) => {
      const used = cpuMs(c.child.pid);
      return sum + used.user + used.system;
    }, 0);
  const clientCpuBefore = clientCpu();
  for (let w = 0; w < WRITES; w++) {
    const team = w % TEAMS;
    const waiting = clients.filter((c) => {
      let n = 0;
      for (let i = c.from; i < c.to; i++) if (teamOf(i) === team) n++;
      expected += n;
      return n > 0;
    });
    const done = waiting.map((c) => c.out.next(`DONE ${w}`));
    sent[w] = now();
    const res = await fetch(`${info.api}/posts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${info.admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: String(w), team }),
    });
    writeMs.push(now() - sent[w]);
    if (res.status !== 201) throw new Error(`write: ${res.status}`);
    const timedOut = await Promise.race([Promise.all(done).then(() => false), Bun.sleep(10_000).then(() => true)]);
    if (timedOut) missing++;
    await Bun.sleep(50);
  }
  const cpuAfter = cpuMs(info.pid);
  const userPerWrite = (cpuAfter.user - cpuBefore.user) / WRITES;
  const systemPerWrite = (cpuAfter.system - cpuBefore.system) / WRITES;
  const clientCpuPerWrite = (clientCpu() - clientCpuBefore) / WRITES;

  const fromCommit: number[] = [];
  const fromSend: number[] = [];
  const lastPerWrite: number[] = [];
  let received = 0;
  for (const c of clients) {
    c.child.stdin.write('report\n');
    c.child.stdin.flush();
    const receipts = JSON.parse(await c.out.next('REPORT ')) as number[];
    for (let i = 0; i < receipts.length; i += 2) {
      const w = receipts[i];
      const at = receipts[i + 1];
      received++;
      fromCommit.push(at - commits[w]);
      fromSend.push(at - sent[w]);
      lastPerWrite[w] = Math.max(lastPerWrite[w] ?? 0, at - commits[w]);
    }
    await c.child.exited;
  }

  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;
  const ms = (x: number) => x.toFixed(1);
  console.log(
    `${N} streams over ${USERS} editors in ${TEAMS} team(s), ${CLIENTS} client process(es), opened in ${(openMs / 1000).toFixed(1)} s; ` +
      `${WRITES} writes, ${received} of ${expected} expected events${missing ? `, ${missing} writes not fully delivered in 10 s` : ''}`,
  );
  if (commits.length !== WRITES) console.log(`warning: ${commits.length} commits noticed for ${WRITES} writes`);
  console.log(
    `server RSS after a full GC ${(before / 2 ** 20).toFixed(0)} MiB -> ${(after / 2 ** 20).toFixed(0)} MiB: ` +
      `${((after - before) / 1024 / N).toFixed(1)} KiB per stream`,
  );
  console.log(`write round trip p50 ${ms(pct(writeMs, 50))} ms, p99 ${ms(pct(writeMs, 99))} ms`);
  console.log(`commit-to-delivery p50 ${ms(pct(fromCommit, 50))} ms, p99 ${ms(pct(fromCommit, 99))} ms`);
  console.log(
    `commit-to-last-stream p50 ${ms(pct(lastPerWrite, 50))} ms, p99 ${ms(pct(lastPerWrite, 99))} ms (per write)`,
  );
  console.log(
    `CPU per write and its fan-out: server ${ms(userPerWrite + systemPerWrite)} ms (user ${ms(userPerWrite)}, ` +
      `system ${ms(systemPerWrite)}), subscriber processes ${ms(clientCpuPerWrite)} ms`,
  );
  console.log(`send-to-delivery p50 ${ms(pct(fromSend, 50))} ms, p99 ${ms(pct(fromSend, 99))} ms`);
  server.kill('SIGTERM');
  await server.exited;
  process.exit(0);
}
