/**
 * Full-text search on one engine (docs/benchmarks.md, "Search"): seeds `--count` documents into two
 * collections alike but for the `search` option, interleaving the two in batches so both see the same
 * machine (write throughput with and without the index, in one run), then times `GET /:collection?search=`
 * and `GET /search?q=` over loopback HTTP (p50/p99) and reports the index's size.
 *
 *   bun scripts/bench-search.ts [--count 20000] [--queries 300] [--engine sqlite|postgres]
 */
import { parseArgs } from 'node:util';
import { startTestServer } from '../test/harness.ts';
import { localAPI } from '../src/local.ts';

const { values } = parseArgs({
  options: {
    count: { type: 'string', default: '20000' },
    queries: { type: 'string', default: '300' },
    engine: { type: 'string', default: 'sqlite' },
  },
});
const COUNT = Number(values.count);
const QUERIES = Number(values.queries);
const engine = values.engine === 'postgres' ? 'postgres' : 'sqlite';

const WORDS = (
  'harbour lantern meadow copper violet thunder orchard granite willow ember falcon river quartz ' +
  'saffron glacier marble canyon velvet beacon cedar prairie cobalt dune juniper nectar pebble summit tundra ' +
  'café élan naïve façade über'
).split(' ');
let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const word = () => WORDS[Math.floor(rand() * WORDS.length)];
const text = (n: number) => Array.from({ length: n }, word).join(' ');
const fields = [
  { name: 'title', type: 'text' as const },
  { name: 'body', type: 'textarea' as const },
];

const t = await startTestServer(
  {
    collections: [
      { slug: 'plain', fields },
      { slug: 'indexed', search: { fields: ['title', 'body'] }, fields },
    ],
  },
  { engine },
);
const admin = await t.user('admin');
const local = localAPI(t.cms);

// Writes: batches of 200 to each collection in turn; wall time and this process's CPU time.
const took = { plain: 0, indexed: 0 };
const cpu = { plain: 0, indexed: 0 };
for (let done = 0; done < COUNT; done += 200) {
  for (const collection of ['plain', 'indexed'] as const) {
    const start = performance.now();
    const used = process.cpuUsage();
    for (let i = done; i < Math.min(COUNT, done + 200); i++)
      await local.create({ collection, data: { title: text(4), body: text(60) } });
    const spent = process.cpuUsage(used);
    cpu[collection] += (spent.user + spent.system) / 1000;
    took[collection] += performance.now() - start;
  }
  if (done % 5000 === 0) process.stderr.write(`\rseeded ${done} of ${COUNT}`);
}
process.stderr.write('\n');

const pct = (xs: number[], p: number) =>
  xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
async function time(urls: () => string): Promise<{ p50: number; p99: number; hits: number }> {
  const ms: number[] = [];
  let hits = 0;
  for (let i = 0; i < QUERIES; i++) {
    const start = performance.now();
    const res = await t.request('GET', urls(), { token: admin.token });
    ms.push(performance.now() - start);
    if (res.status !== 200) throw new Error(`${urls()}: ${res.status} ${res.text}`);
    hits += res.body.totalDocs ?? 0;
  }
  return { p50: pct(ms, 50), p99: pct(ms, 99), hits: Math.round(hits / QUERIES) };
}

const cases = {
  'GET /indexed?search=<word> <prefix> (limit 10)': () =>
    `/indexed?search=${encodeURIComponent(`${word()} ${word().slice(0, 3)}`)}&limit=10`,
  'GET /indexed?search="<two words>" (phrase)': () =>
    `/indexed?search=${encodeURIComponent(`"${word()} ${word()}"`)}&limit=10`,
  'GET /search?q=<word> (snippets, limit 10)': () => `/search?q=${encodeURIComponent(word())}&limit=10`,
  'GET /plain?where[body][like]=<word> (no index, limit 10)': () =>
    `/plain?where[body][like]=${encodeURIComponent(word())}&limit=10`,
};
const rows: string[] = [];
for (const [name, url] of Object.entries(cases)) {
  const r = await time(url);
  rows.push(`| ${name} | ${r.p50.toFixed(1)} ms | ${r.p99.toFixed(1)} ms | ${r.hits} |`);
}

const size =
  engine === 'postgres'
    ? await t.cms.store
        .get<{ bytes: number }>(`SELECT pg_total_relation_size('"_search_indexed"')::bigint AS bytes`)
        .catch(() => null)
    : await t.cms.store
        .get<{ bytes: number }>(`SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name LIKE '_search_indexed%'`)
        .catch(() => null);

const perSec = (ms: number) => Math.round(COUNT / (ms / 1000));
console.log(
  `engine ${engine}, ${COUNT} documents per collection (title 4 words, body 60 words), ${QUERIES} queries per case`,
);
console.log(
  `writes/s without search: ${perSec(took.plain)}, with search: ${perSec(took.indexed)} (${Math.round((took.plain / took.indexed) * 100)}% of without)`,
);
const perWrite = (ms: number) => `${((ms * 1000) / COUNT).toFixed(0)} µs`;
console.log(
  `CPU per write without search: ${perWrite(cpu.plain)}, with search: ${perWrite(cpu.indexed)} (with search at ${Math.round((cpu.plain / cpu.indexed) * 100)}% of the writes per CPU second without)`,
);
console.log(`index size: ${size?.bytes ? `${(Number(size.bytes) / 2 ** 20).toFixed(1)} MiB` : 'n/a'}`);
console.log('| query | p50 | p99 | mean totalDocs |\n|---|---|---|---|');
console.log(rows.join('\n'));
await t.stop();
