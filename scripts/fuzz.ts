/**
 * `bun scripts/fuzz.ts`: throws the outside probe's classes of bad input (scripts/fuzz/inputs.ts) at a
 * server and fails on any 5xx, hang or crash. Bad input must always be a 4xx (docs/security.md).
 *
 * Usage: bun scripts/fuzz.ts [--requests 300] [--seed 1] [--timeout 10000] [--budget 120] [--concurrency 4] [--url http://127.0.0.1:3000]
 * Without --url it starts `cms serve` in a child process on a temp folder (so a crash is seen) and stops
 * it after. --url must be a loopback address: this is a test tool, not a scanner. --token gives an admin
 * bearer token for a --url server. Prints one line, `fuzz: N requests, 0 5xx, 0 hangs, no crash, …`,
 * and exits 1 on any failure, after listing the requests that failed.
 */
import net from 'node:net';
import { parseArgs } from 'node:util';
import { INPUT_CLASSES, seededRandom, type FuzzRequest } from './fuzz/inputs.ts';
import { startTargetServer, type TargetServer } from './fuzz/target-server.ts';

type Outcome = { request: FuzzRequest; kind: string; status: number; ms: number; detail?: string };
type Answer = { status: number; text: string };

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '300' },
    seed: { type: 'string', default: '1' },
    timeout: { type: 'string', default: '10000' },
    budget: { type: 'string', default: '120' },
    concurrency: { type: 'string', default: '4' },
    url: { type: 'string' },
    token: { type: 'string' },
  },
});
const total = Number(values.requests);
const seed = Number(values.seed);
const timeoutMs = Number(values.timeout);
const budgetMs = Number(values.budget) * 1000;
const concurrency = Math.max(1, Number(values.concurrency));

function loopbackOrigin(url: string): string {
  const parsed = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname))
    throw new Error(`--url must be a loopback address, not ${parsed.hostname}`);
  return parsed.origin;
}

/** Sends bytes as they are: fetch() would normalise `..`, refuse TRACE and bytes outside Latin-1. */
function sendRaw(origin: string, request: FuzzRequest, headers: Record<string, string>): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  const body = request.body === undefined ? Buffer.alloc(0) : Buffer.from(request.body);
  const head = [
    `${request.method} ${request.path} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  if (body.length || request.method !== 'GET') head.push(`Content-Length: ${body.length}`);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname.replace(/^\[|\]$/g, ''), () => {
      socket.write(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1'), body]));
    });
    const chunks: Uint8Array[] = [];
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      reject(new Error('timeout'));
    });
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0), text });
    });
    socket.on('error', (error) => (chunks.length ? socket.emit('end') : reject(error)));
  });
}

async function sendFetch(origin: string, request: FuzzRequest, headers: Record<string, string>): Promise<Answer> {
  const res = await fetch(origin + request.path, {
    method: request.method,
    headers,
    body: request.body as BodyInit | undefined,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, text: await res.text() };
}

async function send(origin: string, token: string | undefined, request: FuzzRequest, kind: string): Promise<Outcome> {
  const headers = { ...request.headers };
  if (request.auth && token && !headers.authorization) headers.authorization = `Bearer ${token}`;
  const started = performance.now();
  try {
    const answer = await (request.raw ? sendRaw : sendFetch)(origin, request, headers);
    return {
      request,
      kind,
      status: answer.status,
      ms: performance.now() - started,
      detail: answer.status >= 500 ? answer.text.slice(-300) : undefined,
    };
  } catch (error) {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    // A timeout is a hang; a refused or reset connection means the server is gone or gave up.
    return {
      request,
      kind,
      status: /timeout|TimeoutError|abort/i.test(message) ? -1 : 0,
      ms: performance.now() - started,
      detail: message,
    };
  }
}

function describe(o: Outcome): string {
  const path =
    o.request.path.length > 160 ? `${o.request.path.slice(0, 160)}… (${o.request.path.length} chars)` : o.request.path;
  const status = o.status === -1 ? 'HANG' : o.status === 0 ? 'NO ANSWER' : String(o.status);
  return `  [${o.kind}] ${o.request.method} ${JSON.stringify(path)} → ${status} in ${Math.round(o.ms)} ms${o.detail ? `: ${o.detail.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`;
}

async function main(): Promise<number> {
  const target: TargetServer | null = values.url ? null : await startTargetServer();
  const origin = values.url ? loopbackOrigin(values.url) : target!.origin;
  const token = values.token ?? target?.token;
  const random = seededRandom(seed);
  const outcomes: Outcome[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < total && performance.now() - started < budgetMs && !target?.exited()) {
      const i = next++;
      const kind = INPUT_CLASSES[i % INPUT_CLASSES.length];
      outcomes.push(await send(origin, token, kind.make(random, token ?? ''), kind.name));
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
    // Still answering after everything? A server that died between requests shows here.
    const alive = await send(origin, token, { method: 'GET', path: '/api/cms/users/me' }, 'liveness');
    const crash = target?.exited() ?? (alive.status === 200 ? null : `liveness check answered ${alive.status}`);
    const errors = outcomes.filter((o) => o.status >= 500);
    const hangs = outcomes.filter((o) => o.status === -1);
    const unanswered = outcomes.filter((o) => o.status === 0);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const statuses = new Map<number, number>();
    for (const o of outcomes) statuses.set(o.status, (statuses.get(o.status) ?? 0) + 1);
    const histogram = [...statuses]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    for (const o of [...errors, ...hangs, ...unanswered].slice(0, 40)) console.log(describe(o));
    if ((crash || errors.length) && target) console.log(`server log (tail):\n${target.log().slice(-3000)}`);
    console.log(
      `fuzz: ${outcomes.length} requests, ${errors.length} 5xx, ${hangs.length} hangs, ${unanswered.length} unanswered, ${crash ? `crash (${crash})` : 'no crash'}, ${seconds} s, seed ${seed} · statuses ${histogram}`,
    );
    return errors.length || hangs.length || unanswered.length || crash ? 1 : 0;
  } finally {
    await target?.stop();
  }
}

process.exit(await main());
