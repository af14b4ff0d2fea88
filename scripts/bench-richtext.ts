/**
 * `bun scripts/bench-richtext.ts`: rich text conversions, in one run.
 *  1. In process: a 5,000-word document with 20 images (populated upload nodes, as a depth-1 read holds
 *     them) converted to HTML and to Markdown; median of many runs after a warm-up.
 *  2. Over HTTP: the 20 newest published posts, each with a rich text body of ~300 words, as JSON and
 *     with `richText=html`, on a server with the response cache and one without (same SQLite file),
 *     interleaved in short rounds like the other HTTP benchmarks (docs/benchmarks.md).
 * Usage: bun scripts/bench-richtext.ts [--duration 10] [--rounds 5] [--connections 20] [--docs 2000] [--runs 200]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cmsBinary, cmsStart, freePort, guard, launch } from './bench/processes.ts';
import { compare, median, type Target } from './bench/rounds.ts';
import { getCMS } from '../src/local.ts';
import { manualClock } from '../src/clock.ts';
import { richTextToHTML } from '../src/richtext/to-html.ts';
import { richTextToMarkdown } from '../src/richtext/to-markdown.ts';
import type { LexicalNode, RichTextValue } from '../src/richtext/nodes.ts';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '20' },
    docs: { type: 'string', default: '2000' },
    runs: { type: 'string', default: '200' },
  },
});
const o = {
  duration: Number(values.duration),
  rounds: Math.max(1, Number(values.rounds)),
  connections: Number(values.connections),
};

const WORDS =
  'the quick brown fox jumps over a lazy dog while editors write rich text for static sites and readers'.split(' ');
const text = (value: string, format = 0): LexicalNode => ({
  type: 'text',
  text: value,
  format,
  style: '',
  mode: 'normal',
  detail: 0,
  version: 1,
});
const element = (type: string, children: LexicalNode[], extra: Record<string, unknown> = {}): LexicalNode => ({
  type,
  children,
  direction: 'ltr',
  format: '',
  indent: 0,
  version: 1,
  ...extra,
});
let word = 0;
const words = (n: number) => Array.from({ length: n }, () => WORDS[word++ % WORDS.length]).join(' ');

/** Paragraphs of mixed runs and links, a heading and a list now and then, about `total` words, with `images` images spread through. */
function document(total: number, images: number): RichTextValue {
  const children: LexicalNode[] = [];
  let written = 0;
  let image = 0;
  for (let i = 0; written < total; i++) {
    if (i % 10 === 0) {
      children.push(element('heading', [text(words(5))], { tag: 'h2' }));
      written += 5;
    }
    if (i % 7 === 3) {
      children.push(
        element(
          'list',
          [1, 2, 3].map((v) => element('listitem', [text(words(8))], { value: v })),
          { listType: 'bullet', tag: 'ul', start: 1 },
        ),
      );
      written += 24;
    }
    children.push(
      element(
        'paragraph',
        [
          text(`${words(20)} `),
          text(words(5), 1),
          text(` ${words(10)} `),
          element('link', [text(words(3))], {
            version: 3,
            fields: { linkType: 'custom', url: 'https://example.com/?a=1&b=2', newTab: false },
          }),
          text(` ${words(12)}.`),
        ],
        { textFormat: 0 },
      ),
    );
    written += 50;
    if (images && image < images && i % Math.max(1, Math.floor(total / 70 / images)) === 0) {
      image++;
      const value = {
        id: image,
        url: `/api/cms/media/file/photo-${image}.jpg`,
        alt: `Photo ${image}`,
        width: 1600,
        height: 900,
        mimeType: 'image/jpeg',
        filename: `photo-${image}.jpg`,
        sizes: {
          thumbnail: {
            url: `/api/cms/media/file/photo-${image}-400x225.jpg`,
            width: 400,
            height: 225,
            mimeType: 'image/jpeg',
          },
        },
      };
      children.push({
        type: 'upload',
        relationTo: 'media',
        value,
        fields: null,
        format: '',
        version: 3,
        id: `img${image}`,
      });
    }
  }
  return {
    root: { type: 'root', children, direction: 'ltr', format: '', indent: 0, version: 1 } as RichTextValue['root'],
  };
}

function time(convert: () => string, runs: number): { ms: number; bytes: number } {
  let out = '';
  for (let i = 0; i < 20; i++) out = convert();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    out = convert();
    samples.push(performance.now() - start);
  }
  return { ms: median(samples), bytes: Buffer.byteLength(out) };
}

// 1. Conversions in process.
const big = document(5000, 20);
const countWords = (v: RichTextValue) =>
  JSON.stringify(v)
    .match(/"text":"([^"]*)"/g)!
    .map((m) => m.slice(8, -1))
    .join(' ')
    .split(/\s+/)
    .filter(Boolean).length;
const images = big.root.children!.filter((n) => n.type === 'upload').length;
const runs = Number(values.runs);
const html = time(() => richTextToHTML(big), runs);
const markdown = time(() => richTextToMarkdown(big), runs);
console.log(
  `document: ${countWords(big)} words, ${images} images, ${(Buffer.byteLength(JSON.stringify(big)) / 1024).toFixed(0)} kB of JSON`,
);
console.log('| conversion | median | output |');
console.log('|---|---|---|');
console.log(`| HTML | ${html.ms.toFixed(2)} ms | ${(html.bytes / 1024).toFixed(0)} kB |`);
console.log(`| Markdown | ${markdown.ms.toFixed(2)} ms | ${(markdown.bytes / 1024).toFixed(0)} kB |`);

// 2. A list of 20 posts over HTTP.
const total = Number(values.docs);
const useBinary = fs.existsSync(cmsBinary);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-richtext-'));
const track = guard(dir);
const collection = `{ slug: 'posts', access: { read: () => true }, indexes: [{ fields: ['status', 'createdAt'] }], fields: [
  { name: 'title', type: 'text', required: true }, { name: 'status', type: 'select', options: ['draft', 'published'] }, { name: 'content', type: 'richText' } ] }`;
fs.writeFileSync(path.join(dir, 'cms.config.ts'), `export default { collections: [${collection}] };\n`);
fs.writeFileSync(
  path.join(dir, 'cms.no-cache.config.ts'),
  `import config from './cms.config.ts';\nexport default { ...config, cache: false };\n`,
);
const clock = manualClock(Date.parse('2026-01-01T00:00:00Z'));
const cms = await getCMS({
  config: path.join(dir, 'cms.config.ts'),
  clock,
  log: { info() {}, warn: console.warn, error: console.error },
});
const body = document(300, 0);
for (let i = 0; i < total; i++) {
  clock.advance(1000);
  await cms.create({
    collection: 'posts',
    data: { title: `Post ${i}`, status: i % 2 ? 'published' : 'draft', content: body },
  });
}
await cms.close();

const cachedPort = freePort();
const uncachedPort = freePort();
const servers = [
  await launch(cmsStart(cachedPort, { cwd: dir, binary: useBinary }), track),
  await launch(
    cmsStart(uncachedPort, { cwd: dir, binary: useBinary, config: path.join(dir, 'cms.no-cache.config.ts') }),
    track,
  ),
];
const list = '/api/cms/posts?where[status][equals]=published&sort=-createdAt&limit=20';
const asHTML = (port: number): Target => ({ port, path: `${list}&richText=html` });
const asJSON = (port: number): Target => ({ port, path: list });
const sample = (await (await fetch(`http://127.0.0.1:${cachedPort}${asHTML(cachedPort).path}`)).json()) as {
  docs: { content: unknown }[];
};
if (sample.docs.length !== 20 || typeof sample.docs[0]!.content !== 'string')
  throw new Error('richText=html did not answer 20 posts with HTML');
const sizes = await Promise.all(
  [asHTML, asJSON].map(
    async (t) => (await (await fetch(`http://127.0.0.1:${cachedPort}${t(cachedPort).path}`)).arrayBuffer()).byteLength,
  ),
);

const rows: string[] = [];
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
for (const [label, port] of [
  ['cache on', cachedPort],
  ['cache off', uncachedPort],
] as const) {
  const m = await compare(asHTML(port), asJSON(port), o);
  rows.push(
    `| ${label} | ${Math.round(m.a.rps)} | ${m.a.p99} ms | ${Math.round(m.b.rps)} | ${m.b.p99} ms | ${pct(m.ratio)} (${pct(m.low)}–${pct(m.high)}) |`,
  );
  console.log(
    `${label}: richText=html ${Math.round(m.a.rps)} req/s, JSON ${Math.round(m.b.rps)} req/s, ratio ${pct(m.ratio)} (rounds: ${m.ratios.map(pct).join(' ')})`,
  );
}
for (const proc of servers) proc.kill();
await Promise.all(servers.map((proc) => proc.exited));

console.log('');
console.log(
  `CMS: ${useBinary ? 'dist/cms' : 'from source'} on SQLite · ${o.connections} connections · ${o.duration} s per side per case in ${o.rounds} interleaved rounds, after a 2 s warm-up · ${total} posts of ~${countWords(body)} words, 20 per page (answer ${(sizes[0]! / 1024).toFixed(0)} kB as HTML, ${(sizes[1]! / 1024).toFixed(0)} kB as JSON)`,
);
console.log('| response cache | richText=html req/s | p99 | JSON req/s | p99 | html / JSON, median (range) |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(0);
