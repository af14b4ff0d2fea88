/**
 * `bun scripts/hostile.ts [--binary dist/cms] [--seconds 15] [--only TEXT]`: hostile traffic against one server, each
 * attack next to ordinary reads, printed as a table (docs/benchmarks.md, "Hostile traffic"). Seeds a temp
 * folder (100 articles with 10 links each, 200 notes, an admin), then for each attack starts a fresh server
 * on 127.0.0.1 (the built binary with `--binary`, else this checkout from source), runs the attack while two
 * readers loop on `GET /api/cms/notes`, and prints the server's peak RSS (VmHWM), the reads' p50/p99 during
 * the attack, and whether the server still answered afterwards. Every loop is bounded in count and time;
 * all traffic stays on loopback. `--only` runs the attacks whose name holds TEXT (and the ordinary reads alone).
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, guard, launch, production, type Start } from './bench/processes.ts';
import { getCMS } from '../src/local.ts';

const { values } = parseArgs({
  options: { binary: { type: 'string' }, seconds: { type: 'string', default: '15' }, only: { type: 'string' } },
});
const root = path.join(import.meta.dir, '..');
const binary = values.binary ? path.resolve(values.binary) : null;
const SECONDS = Math.max(3, Number(values.seconds));
const ADMIN = { email: 'hostile-admin@example.com', password: 'password123' };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-hostile-'));
const track = guard(dir);

fs.writeFileSync(
  path.join(dir, 'cms.config.ts'),
  `export default {
  realtime: { maxConnections: 1000 },
  collections: [
    {
      slug: 'articles',
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'links', type: 'relationship', relationTo: 'articles', hasMany: true },
      ],
    },
    {
      slug: 'notes',
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'body', type: 'textarea' },
      ],
    },
  ],
};
`,
);

// Seed through the Local API of this checkout.
const seed = await getCMS({
  config: path.join(dir, 'cms.config.ts'),
  log: { info() {}, warn() {}, error: console.error },
});
await seed.create({ collection: 'users', data: { ...ADMIN, name: 'Hostile Admin', role: 'admin' } });
const articles: number[] = [];
for (let i = 0; i < 100; i++)
  articles.push((await seed.create({ collection: 'articles', data: { title: `Article ${i}` } })).id as number);
for (let i = 0; i < 100; i++) {
  const links = Array.from({ length: 10 }, (_, k) => articles[(i + k + 1) % 100]);
  await seed.update({ collection: 'articles', id: articles[i], data: { links } });
}
const notes: number[] = [];
for (let i = 0; i < 200; i++)
  notes.push(
    (await seed.create({ collection: 'notes', data: { title: `Note ${i}`, body: 'x'.repeat(200) } })).id as number,
  );
await seed.close();

type Server = { port: number; api: string; pid: number; stop(): Promise<void> };

/** Each attack starts from the seeded state: what one attack wrote (large notes) must not weigh on the next. */
let attacks = 0;
async function startServer(): Promise<Server> {
  const port = freePort();
  const work = `${dir}-attack-${++attacks}`;
  fs.cpSync(dir, work, { recursive: true });
  const start: Start = {
    command: [
      ...(binary ? [binary] : [process.execPath, path.join(root, 'src/cli/main.ts')]),
      'serve',
      '--port',
      String(port),
    ],
    cwd: work,
    env: production(),
    url: `http://127.0.0.1:${port}/api/cms/users/init`,
    wait: 30_000,
  };
  const p = await launch(start, track);
  return {
    port,
    api: `http://127.0.0.1:${port}/api/cms`,
    pid: p.pid,
    async stop() {
      p.kill('SIGKILL');
      await p.exited;
      fs.rmSync(work, { recursive: true, force: true });
    },
  };
}

const hwmMB = (pid: number) => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return NaN; // the process is gone
  }
};
const alive = (pid: number) => fs.existsSync(`/proc/${pid}`);

/** Two readers in a loop on the ordinary list until `stop` resolves (each read waits at most 30 s). */
function ordinaryReads(api: string, stop: Promise<unknown>) {
  const times: number[] = [];
  let failed = 0;
  let done = false;
  void stop.finally(() => (done = true));
  const reader = async () => {
    for (let n = 0; !done && n < 100_000; n++) {
      const began = performance.now();
      try {
        const res = await fetch(`${api}/notes?limit=10&page=${1 + (n % 5)}`, { signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
      } catch {
        failed++;
      }
      times.push(performance.now() - began);
    }
  };
  return Promise.all([reader(), reader()]).then(() => ({ times, failed }));
}

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};
const ms = (x: number) => (Number.isNaN(x) ? '—' : x >= 1000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`);

async function login(api: string): Promise<string> {
  const res = await fetch(`${api}/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  return ((await res.json()) as { token: string }).token;
}

/** Whether the server answers an ordinary read within 30 s once the attack is over. */
async function answersAfter(server: Server): Promise<string> {
  if (!alive(server.pid)) return 'no (process gone)';
  const began = performance.now();
  try {
    const res = await fetch(`${server.api}/notes?limit=10`, { signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
    return `${res.status === 200 ? 'yes' : `status ${res.status}`} (${ms(performance.now() - began)})`;
  } catch {
    return 'no answer in 30 s';
  }
}

type Row = { attack: string; outcome: string; rss: number; p50: string; p99: string; reads: string; after: string };
const rows: Row[] = [];

/** One attack on a fresh server, with the ordinary reads beside it. */
async function run(attack: string, body: (server: Server) => Promise<string>) {
  if (values.only && !attack.startsWith('none') && !attack.includes(values.only)) return;
  const server = await startServer();
  let finish!: () => void;
  const over = new Promise<void>((resolve) => (finish = resolve));
  const reads = ordinaryReads(server.api, over);
  let outcome: string;
  try {
    outcome = await body(server);
  } catch (error) {
    outcome = `attack failed: ${(error as Error).message}`;
  }
  finish();
  const { times, failed } = await reads;
  const rss = hwmMB(server.pid);
  const after = await answersAfter(server);
  await server.stop();
  const row = {
    attack,
    outcome,
    rss,
    p50: ms(quantile(times, 0.5)),
    p99: ms(quantile(times, 0.99)),
    reads: `${times.length}${failed ? ` (${failed} failed)` : ''}`,
    after,
  };
  rows.push(row);
  console.error(`${attack}: ${JSON.stringify(row)}`);
}

const graphql = (api: string, query: string, signal?: AbortSignal) =>
  fetch(`${api}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
    signal,
  });

await run('none (ordinary reads alone)', async () => {
  await Bun.sleep(SECONDS * 1000);
  return '—';
});

await run('GraphQL fan-out: 100 articles × 10 links, 4 levels', async (server) => {
  const query = '{ Articles(limit: 100) { docs { links { links { links { links { id } } } } } } }';
  const until = performance.now() + SECONDS * 1000;
  const outcomes: string[] = [];
  // Sent again and again for the attack's time (at least once, at most 50 times), one after another.
  for (let n = 0; n < 50 && (n === 0 || performance.now() < until); n++) {
    const began = performance.now();
    try {
      const res = await graphql(server.api, query, AbortSignal.timeout(120_000));
      const text = await res.text();
      const took = ms(performance.now() - began);
      const body = JSON.parse(text) as { errors?: { message: string }[] };
      if (body.errors?.length) outcomes.push(`refused in ${took}: ${body.errors[0].message.slice(0, 60)}…`);
      else {
        const documents = text.match(/"id":/g)?.length ?? 0;
        outcomes.push(
          `answered in ${took}: ${documents.toLocaleString('en')} documents, ${(text.length / 1e6).toFixed(0)} MB`,
        );
      }
    } catch (error) {
      outcomes.push(`no answer in 120 s (${(error as Error).name})`);
      break;
    }
  }
  return `${outcomes.length} sent; the first ${outcomes[0]}`;
});

/**
 * Two loops sending `query(n)` (a different text each time, so that none is answered from a kept plan), at
 * most `perLoop` each, for the attack's time: how many were sent and how many refused.
 */
async function flood(api: string, perLoop: number, query: (n: number) => string): Promise<string> {
  const until = performance.now() + SECONDS * 1000;
  let sent = 0;
  let refused = 0;
  const loop = async (id: number) => {
    for (let n = 0; n < perLoop && performance.now() < until; n++) {
      try {
        const res = await graphql(api, query(id * perLoop + n), AbortSignal.timeout(30_000));
        const body = (await res.json()) as { errors?: unknown[] };
        sent++;
        if (body.errors?.length) refused++;
      } catch {
        sent++;
      }
    }
  };
  await Promise.all([loop(0), loop(1)]);
  return `${sent} sent in ${SECONDS} s, ${refused} refused`;
}
/** A character of its own for each `n`: no two documents are the same text. */
const fresh = (n: number) => String.fromCharCode(0x4e00 + (n % 20000));

await run('GraphQL validation flood: 2 loops of 47 KB same-named-field documents', (server) =>
  flood(server.api, 500, (n) => `{ Articles { docs { ${'title '.repeat(7800)} } } } # ${fresh(n)}`),
);

await run('GraphQL fragment flood: 2 loops of 1,100 one-field fragments spread side by side', (server) => {
  const spreads = Array.from({ length: 1100 }, (_, i) => `...F${i}`).join(' ');
  const fragments = Array.from({ length: 1100 }, (_, i) => `fragment F${i} on Query { __typename }`).join(' ');
  return flood(server.api, 500, (n) => `{ ${spreads} } ${fragments} # ${fresh(n)}`);
});

await run('GraphQL distinct large queries: 2 loops of 44 KB valid documents (9,000 list values)', (server) => {
  const list = Array.from({ length: 9000 }, (_, i) => i).join(' ');
  return flood(server.api, 250, (n) => `{ Notes(where: { id: { in: [${list}] } }) { docs { id } } } # ${fresh(n)}`);
});

/** An SSE stream on a raw socket that never reads what it is sent (the kernel's buffers fill, then the server's). */
function stalledStream(
  port: number,
  pathAndQuery: string,
  headers = '',
): Promise<{ socket: net.Socket; status: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let head = '';
    const done = (status: string) => {
      socket.removeAllListeners('data');
      socket.pause();
      resolve({ socket, status });
    };
    socket.on('error', () => done('error'));
    socket.on('connect', () =>
      socket.write(`GET ${pathAndQuery} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n${headers}\r\n`),
    );
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1');
      const line = /^HTTP\/1\.1 (\d+)/.exec(head);
      if (line) done(line[1]);
    });
    setTimeout(() => done('timeout'), 10_000);
  });
}

await run('Stalled realtime streams: 300 that never read, an editor saving 500 KB notes', async (server) => {
  const streams = [];
  for (let i = 0; i < 300; i++) streams.push(await stalledStream(server.port, '/api/cms/realtime?topics=notes'));
  const open = streams.filter((s) => s.status === '200').length;
  const token = await login(server.api);
  const until = performance.now() + SECONDS * 1000;
  let saves = 0;
  for (let n = 0; n < 200 && performance.now() < until; n++) {
    const res = await fetch(`${server.api}/notes/${notes[n % notes.length]}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ body: `${n} ${'y'.repeat(500_000)}` }),
      signal: AbortSignal.timeout(30_000),
    }).catch(() => null);
    if (res?.ok) saves++;
    await res?.arrayBuffer();
  }
  const fds = (() => {
    try {
      return fs.readdirSync(`/proc/${server.pid}/fd`).length;
    } catch {
      return NaN;
    }
  })();
  for (const s of streams) s.socket.destroy();
  return `${open} streams open, ${saves} saves; ${fds} descriptors at the end`;
});

await run('Excess realtime streams: 1,100 from one address (maxConnections 1000)', async (server) => {
  const streams = [];
  const until = performance.now() + SECONDS * 1000;
  for (let i = 0; i < 1100 && performance.now() < until; i++)
    streams.push(await stalledStream(server.port, '/api/cms/realtime?topics=notes'));
  const token = await login(server.api);
  const admin = await stalledStream(
    server.port,
    '/api/cms/realtime?topics=notes',
    `Authorization: Bearer ${token}\r\n`,
  );
  const counts = new Map<string, number>();
  for (const s of streams) counts.set(s.status, (counts.get(s.status) ?? 0) + 1);
  for (const s of [...streams, admin]) s.socket.destroy();
  const statuses = [...counts].map(([status, n]) => `${n}×${status}`).join(', ');
  return `anonymous: ${statuses}; then a signed-in admin: ${admin.status}`;
});

await run('MCP: JSON-RPC batches of 100 tools/call', async (server) => {
  const token = await login(server.api);
  const batch = Array.from({ length: 100 }, (_, i) => ({
    jsonrpc: '2.0',
    id: i,
    method: 'tools/call',
    params: { name: 'find', arguments: { collection: 'notes', limit: 10 } },
  }));
  const until = performance.now() + SECONDS * 1000;
  let batches = 0;
  let calls = 0;
  const statuses = new Map<number, number>();
  for (let n = 0; n < 300 && performance.now() < until; n++) {
    const res = await fetch(`${server.api}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(batch),
      signal: AbortSignal.timeout(30_000),
    }).catch(() => null);
    if (!res) continue;
    batches++;
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const text = await res.text();
    if (res.ok) calls += text.match(/"result":\{"content"/g)?.length ?? 0;
  }
  const answered = [...statuses].map(([status, n]) => `${n}×${status}`).join(', ');
  return `${batches} batches (${answered}): ${calls.toLocaleString('en')} tool calls ran`;
});

fs.rmSync(dir, { recursive: true, force: true });
console.log(
  `\n${binary ? `binary ${path.relative(process.cwd(), binary) || binary}` : 'from source'}, ${SECONDS} s per attack\n`,
);
console.log('| attack | outcome | peak RSS | reads p50 | reads p99 | reads | answering after |');
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(`| ${r.attack} | ${r.outcome} | ${r.rss} MB | ${r.p50} | ${r.p99} | ${r.reads} | ${r.after} |`);
process.exit(0);
