/**
 * CPU per create in process, where the machine's load disturbs less than over HTTP: the REST create
 * through the request handler Bun.serve would call (20 in flight, so group commit shares commits, and one
 * at a time), the Local API one at a time, and the bare create (the same prepared INSERT … RETURNING and
 * `Response.json`, each its own commit) on a copy of the same file. User + system time of the whole
 * process (`process.cpuUsage`, worker threads included: the checkpoints, but also the JIT compiler's
 * threads, busy for a while yet after the warm-up) and of the JavaScript thread alone
 * (`process.threadCpuUsage`, steadier), the medians of the rounds, the cases in turn.
 * `--checkout DIR` measures another checkout's source on the same config.
 *
 *   bun scripts/bench-create-cpu.ts [--creates 2000] [--rounds 7] [--warmup 200] [--checkout DIR] [--only TEXT]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Database } from 'bun:sqlite';
import { benchRequests, benchUser, postBody, postsConfig } from './bench/posts.ts';

const { values } = parseArgs({
  options: {
    creates: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '7' },
    warmup: { type: 'string', default: '200' },
    checkout: { type: 'string' },
    only: { type: 'string' },
  },
});
const creates = Number(values.creates);
const { createBody } = benchRequests(0);
const root = path.resolve(values.checkout ?? path.join(import.meta.dir, '..'));
const { createCMS } = await import(path.join(root, 'src/create-cms.ts'));
const { createRequestHandler } = await import(path.join(root, 'src/http/request-handler.ts'));
const { localAPI } = await import(path.join(root, 'src/local.ts'));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-create-cpu-'));
fs.writeFileSync(
  path.join(dir, 'cms.config.ts'),
  postsConfig().replace('export default {', 'export default {\n  cache: false,'),
);
process.chdir(dir);
const cms = await createCMS({ configPath: path.join(dir, 'cms.config.ts'), dev: false });
const handle = createRequestHandler(cms, { logFormat: 'off', idleTimeout: 10 });
const connection = { requestIP: () => ({ address: '127.0.0.1', family: 'IPv4', port: 1 }), timeout() {} };
const local = localAPI(cms);
await local.create({ collection: 'users', data: { ...benchUser, role: 'admin' } });
const loggedIn = await handle(
  new Request('http://localhost/api/cms/users/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(benchUser),
  }),
  connection as never,
);
const { token } = (await loggedIn.json()) as { token: string };
const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };

const restCreate = async () => {
  const res = await handle(
    new Request('http://localhost/api/cms/posts', { method: 'POST', headers, body: createBody }),
    connection as never,
  );
  if (res.status !== 201) throw new Error(`create: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
};
const localCreate = () =>
  local.create({ collection: 'posts', data: { title: 'Bench post', body: postBody, status: 'published', views: 1 } });

// The bare create writes a copy of the same file: the posts table and its indexes, nothing else.
await local.create({
  collection: 'posts',
  data: { title: 'Bench post', body: postBody, status: 'published', views: 1 },
});
const bareFile = path.join(dir, 'bare.db');
const source = new Database(path.join(dir, 'data/cms.db'));
source.exec(`VACUUM INTO '${bareFile}'`);
source.close();
const bare = new Database(bareFile, { strict: true });
bare.exec('PRAGMA journal_mode = WAL');
bare.exec('PRAGMA synchronous = NORMAL');
const insert = bare.query<Record<string, unknown>, [string, string, string, number, string, string]>(
  'INSERT INTO "posts" ("title", "body", "status", "views", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?) RETURNING *',
);
const bareCreate = async () => {
  const data = JSON.parse(createBody);
  const now = new Date().toISOString();
  const row = insert.get(data.title, data.body, data.status, data.views, now, now)!;
  await Response.json({ doc: row, message: 'Successfully created.' }, { status: 201 }).arrayBuffer();
};

const inFlight = (run: () => Promise<unknown>, width: number) => async (calls: number) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next++ < calls) await run();
    }),
  );
};
const allCases: [string, (calls: number) => Promise<void>][] = [
  ['REST create, 20 in flight', inFlight(restCreate, 20)],
  ['REST create, one at a time', inFlight(restCreate, 1)],
  ['Local API create, one at a time', inFlight(localCreate, 1)],
  ['bare create, one at a time', inFlight(bareCreate, 1)],
];
const cases = allCases.filter(([label]) => !values.only || label.includes(values.only));
const samples = new Map<string, number[]>(cases.map(([label]) => [label, []]));
const onThread = new Map<string, number[]>(cases.map(([label]) => [label, []]));
for (const [, run] of cases) await run(Number(values.warmup));
for (let round = 0; round < Number(values.rounds); round++) {
  for (const [label, run] of cases) {
    const before = process.cpuUsage();
    const beforeThread = process.threadCpuUsage();
    await run(creates);
    const used = process.cpuUsage(before);
    const usedThread = process.threadCpuUsage(beforeThread);
    samples.get(label)!.push((used.user + used.system) / creates);
    onThread.get(label)!.push((usedThread.user + usedThread.system) / creates);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${root}: µs CPU per create (process, JS thread), median of ${values.rounds} rounds of ${creates}`);
for (const [label, xs] of samples) {
  const thread = onThread.get(label)!;
  console.log(
    `  ${label.padEnd(34)} ${median(xs).toFixed(1).padStart(7)} ${median(thread).toFixed(1).padStart(7)}  (${xs.map((x) => x.toFixed(0)).join(' ')})`,
  );
}
bare.close();
await cms.close();
fs.rmSync(dir, { recursive: true, force: true });
