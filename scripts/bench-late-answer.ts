/**
 * `bun scripts/bench-late-answer.ts`: what a bare `Bun.serve` spends on an answer finished in the turn of
 * the event loop that received its request, after microtasks, or in a later turn (docs/benchmarks.md,
 * "Answers finished in a later turn"), by size, and as plain bytes or as a stream of one chunk. µs of CPU
 * per request from /proc, the variants loaded in turns (scripts/bench/cpu-rounds.ts).
 * Usage: bun scripts/bench-late-answer.ts [--seconds 2] [--rounds 3] [--connections 20] [--sizes 9000,15000,17000,20000]
 *   [--variants at-once,microtask,later,later-stream,at-once-stream]
 */
import { parseArgs } from 'node:util';
import { cpuPerRequest } from './bench/cpu-rounds.ts';
import { freePort } from './bench/processes.ts';

const { values } = parseArgs({
  options: {
    serve: { type: 'string' },
    seconds: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '20' },
    sizes: { type: 'string', default: '9000,15000,17000,20000' },
    variants: { type: 'string', default: 'at-once,microtask,later,later-stream,at-once-stream' },
  },
});

const oneChunk = (bytes: Uint8Array<ArrayBuffer>) =>
  new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
const headers = { 'content-type': 'application/json' };
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const variants: Record<string, (bytes: Uint8Array<ArrayBuffer>) => Response | Promise<Response>> = {
  'at-once': (bytes) => new Response(bytes, { headers }),
  microtask: async (bytes) => {
    await null;
    return new Response(bytes, { headers });
  },
  later: async (bytes) => {
    await nextTurn();
    return new Response(bytes, { headers });
  },
  'later-stream': async (bytes) => {
    await nextTurn();
    return new Response(oneChunk(bytes), { headers });
  },
  'at-once-stream': (bytes) => new Response(oneChunk(bytes), { headers }),
};

if (values.serve) {
  // The server: `/<variant>/<bytes>` answers that many bytes of JSON the variant's way.
  const bodies = new Map<number, Uint8Array<ArrayBuffer>>();
  Bun.serve({
    port: Number(values.serve),
    hostname: '127.0.0.1',
    fetch(request) {
      const url = request.url;
      const [variant, size] = url.slice(url.indexOf('/', 8) + 1).split('/') as [string, string];
      const n = Number(size);
      let bytes = bodies.get(n);
      if (!bytes) bodies.set(n, (bytes = new TextEncoder().encode(JSON.stringify({ x: 'a'.repeat(n - 8) }))));
      return variants[variant]?.(bytes) ?? new Response('not found', { status: 404 });
    },
  });
} else {
  const port = freePort();
  const server = Bun.spawn([process.execPath, import.meta.path, '--serve', String(port)], { stdout: 'ignore' });
  process.on('exit', () => server.kill());
  await Bun.sleep(500);
  const sizes = values.sizes.split(',').map(Number);
  const chosen = values.variants.split(',');
  const served = chosen.flatMap((variant) =>
    sizes.map((size) => ({
      name: `${variant}/${size}`,
      pid: server.pid,
      target: { port, path: `/${variant}/${size}` },
    })),
  );
  const o = { seconds: Number(values.seconds), rounds: Number(values.rounds), connections: Number(values.connections) };
  const figures = await cpuPerRequest(served, o);
  console.log(
    `bare Bun.serve ${Bun.version}, ${o.connections} connections, µs of CPU per request (median of ${o.rounds} rounds)`,
  );
  console.log(`| answer | ${sizes.map((s) => `${s} B`).join(' | ')} |`);
  console.log(`|---|${sizes.map(() => '---').join('|')}|`);
  for (const variant of chosen)
    console.log(
      `| ${variant} | ${sizes.map((s) => figures.get(`${variant}/${s}`)!.cpuMicros.toFixed(1)).join(' | ')} |`,
    );
  server.kill();
}
