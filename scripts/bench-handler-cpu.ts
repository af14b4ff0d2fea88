/**
 * `bun scripts/bench-handler-cpu.ts`: what one kept read costs the request handler in CPU time, in this
 * process and without a socket: the REST list, the same list as a GraphQL query (POST and GET) and as an
 * MCP `find`, each answered by the handler `Bun.serve` calls (src/http/request-handler.ts). On a machine
 * other work shares, taking turns in short batches keeps the cases' figures comparable where whole-server
 * runs (`scripts/bench-cpu.ts`) spread too far; the socket's own work, the same for every case but for
 * the body's size, is left out.
 * Usage: bun scripts/bench-handler-cpu.ts [--batches 60] [--calls 200] [--docs 2000] [--baseline DIR]
 * `--baseline DIR` runs another checkout's handler (its source, on the same file) in the same turns;
 * `--only WORD` keeps the cases whose label holds it (the REST list is always run, as the reference).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { benchRequests, graphqlListQuery, mcpFindBody, postsConfig, seedPosts } from './bench/posts.ts';
import { median } from './bench/rounds.ts';
import { getCMS } from '../src/local.ts';

const { values } = parseArgs({
  options: {
    batches: { type: 'string', default: '60' },
    calls: { type: 'string', default: '200' },
    docs: { type: 'string', default: '2000' },
    baseline: { type: 'string' },
    only: { type: 'string' },
  },
});
const total = Number(values.docs);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-handler-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
const configPath = path.join(dir, 'cms.config.ts');
fs.writeFileSync(
  configPath,
  postsConfig().replace('export default {', 'export default {\n  mcp: { requestsPerMinute: 1e9 },'),
);
await seedPosts(getCMS, dir, total);
const local = await getCMS({ config: configPath, log: { info() {}, warn() {}, error: console.error } });
const admin = (await local.find({ collection: 'users', limit: 1 })).docs[0]!;
const key = (await local.create({ collection: 'api-keys', data: { name: 'bench', user: admin.id, scopes: ['*'] } }))
  .key as string;
await local.close();

type Handler = (request: Request, connection: unknown) => Promise<Response>;
/** A checkout's request handler over the seeded database, as `cms serve` builds it. */
async function handlerOf(root: string): Promise<Handler> {
  const { createCMS } = await import(path.join(root, 'src/create-cms.ts'));
  const { createRequestHandler } = await import(path.join(root, 'src/http/request-handler.ts'));
  const cms = await createCMS({ configPath, rootDir: dir, log: { info() {}, warn() {}, error: console.error } });
  return createRequestHandler(cms, { logFormat: 'off', idleTimeout: 10 });
}
const handlers: [string, Handler][] = [['cms', await handlerOf(path.join(import.meta.dir, '..'))]];
if (values.baseline) handlers.push(['baseline', await handlerOf(path.resolve(values.baseline))]);

const connection = { requestIP: () => ({ address: '127.0.0.1', family: 'IPv4', port: 40000 }), timeout: () => {} };
const origin = 'http://127.0.0.1:3000/api/cms';
const post = (body: string, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body,
  headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
});
const allCases: { label: string; url: string; init?: ReturnType<typeof post> }[] = [
  { label: 'REST list, 20 + totalDocs', url: `${origin}${benchRequests(total).list}` },
  {
    label: 'the list as GraphQL, POST',
    url: `${origin}/graphql`,
    init: post(JSON.stringify({ query: graphqlListQuery })),
  },
  { label: 'the list as GraphQL, GET', url: `${origin}/graphql?query=${encodeURIComponent(graphqlListQuery)}` },
  {
    label: 'REST list, with the API key',
    url: `${origin}${benchRequests(total).list}`,
    init: { method: 'GET', headers: { authorization: `Bearer ${key}` } } as never,
  },
  {
    label: 'the list as an MCP find',
    url: `${origin}/mcp`,
    init: post(mcpFindBody, { accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` }),
  },
];

const cases = allCases.filter((c, i) => i === 0 || !values.only || c.label.includes(values.only));

/** µs of CPU per call for `calls` calls, each answer read to its end as a socket would send it. */
async function batch(handle: Handler, c: (typeof cases)[number], calls: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const response = await handle(new Request(c.url, c.init), connection);
    if (response.status !== 200) throw new Error(`${c.label}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

const calls = Number(values.calls);
const figures = new Map<string, number[]>();
for (const c of cases) for (const [, handle] of handlers) await batch(handle, c, calls); // warm: answers kept
for (let b = 0; b < Number(values.batches); b++)
  for (const c of cases)
    for (const [name, handle] of b % 2 ? [...handlers].reverse() : handlers) {
      const key = `${c.label}\t${name}`;
      figures.set(key, [...(figures.get(key) ?? []), await batch(handle, c, calls)]);
    }

// The fastest tenth of the batches is the least disturbed by other work: the cost of the path itself.
const fastTenth = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 10)]!;
console.log(`${values.batches} batches of ${calls} calls per case and handler, ${total} posts; µs CPU per call`);
const ofCase = (label: string, name: string) => figures.get(`${label}\t${name}`)!;
for (const [name] of handlers) {
  const rest = ofCase(cases[0]!.label, name);
  for (const c of cases) {
    const xs = ofCase(c.label, name);
    const [m, f] = [median(xs), fastTenth(xs)];
    const ratio = (a: number, b: number) => `${((a / b) * 100).toFixed(0)}%`;
    console.log(
      `  ${c.label.padEnd(28)} ${name.padEnd(9)} median ${m.toFixed(1).padStart(6)} µs (REST list / this ${ratio(median(rest), m).padStart(4)}), fastest tenth ${f.toFixed(1).padStart(6)} µs (${ratio(fastTenth(rest), f).padStart(4)})`,
    );
  }
}
process.exit(0);
