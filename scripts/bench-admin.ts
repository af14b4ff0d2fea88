/**
 * `bun scripts/bench-admin.ts`: typing latency in the admin's edit form, in Chromium (docs/benchmarks.md,
 * "Admin typing"). Two documents: a page whose `layout` holds 40 blocks (rich text, a call to action with
 * a list of links, a quote), typed into its title and into the rich text of its 19th block; and a post of
 * 5,000 words of rich text, typed into its title and at the end of its text.
 *
 * Per key, the main thread's own work, which answers "does a key stay under 16 ms" on a shared machine:
 * from the page starting to handle the key (its `keydown`) to the end of the render its `input` event
 * started, as the median and the 95th percentile over all keys; and the main thread's CPU time per key
 * (Chromium's `ThreadTime` over the whole run, divided by the keys; layout and paint included), beside a
 * bare `<input>` added to the same page in the same run, the cost of a key that renders nothing. The
 * wall-clock figures around them ("handled": keydown's time stamp to the main thread free again after the
 * `input` event; "painted": to the frame after) include the time a key waits for a busy machine, and move
 * with its load. Keys are typed `--keys` at a time with a pause between them, so one key's work does not
 * overlap the next.
 *
 *   bun scripts/bench-admin.ts                 # 120 keys per case
 *   bun scripts/bench-admin.ts --keys 60
 */
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { buildAdmin } from '../admin/build.ts';
import type { UserConfig } from '../src/config/types.ts';
import { launchBrowser } from '../test/browser.ts';
import { startTestServer } from '../test/harness.ts';
import { logInThroughForm } from '../test/support/admin-page.ts';
import { paragraph, root as rootOf, text } from '../test/fixtures/richtext/nodes.ts';

const { values } = parseArgs({ options: { keys: { type: 'string', default: '120' } } });
const KEYS = Math.max(10, Number(values.keys));

const root = (paragraphs: string[]) => rootOf(...paragraphs.map((p) => paragraph(text(p))));
const WORDS = 'the quick brown fox jumps over a lazy dog while editors write long pages of careful prose'.split(' ');
const words = (n: number, seed = 0) =>
  Array.from({ length: n }, (_, i) => WORDS[(i * 7 + seed) % WORDS.length]).join(' ');

const config = {
  collections: [
    {
      slug: 'pages',
      drafts: true,
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'slug', type: 'text' },
        {
          name: 'layout',
          type: 'blocks',
          blocks: [
            { slug: 'content', fields: [{ name: 'body', type: 'richText' }] },
            {
              slug: 'cta',
              fields: [
                { name: 'heading', type: 'text' },
                {
                  name: 'links',
                  type: 'array',
                  fields: [
                    { name: 'label', type: 'text' },
                    { name: 'url', type: 'text' },
                  ],
                },
              ],
            },
            {
              slug: 'quote',
              fields: [
                { name: 'quote', type: 'textarea' },
                { name: 'author', type: 'text' },
              ],
            },
          ],
        },
      ],
    },
    {
      slug: 'posts',
      drafts: true,
      admin: { useAsTitle: 'title' },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'content', type: 'richText' },
      ],
    },
  ],
} as unknown as UserConfig;

function layout(): Record<string, unknown>[] {
  return Array.from({ length: 40 }, (_, i) =>
    i % 3 === 0
      ? { blockType: 'content', body: root([words(40, i), words(30, i + 1)]) }
      : i % 3 === 1
        ? {
            blockType: 'cta',
            heading: `Call ${i}`,
            links: [
              { label: 'One', url: '/one' },
              { label: 'Two', url: '/two' },
            ],
          }
        : { blockType: 'quote', quote: words(25, i), author: `Author ${i}` },
  );
}

/**
 * Installs the per-key probe in the page. `own`: from the moment the page starts handling the key (its
 * `keydown` reaching the window) to the end of the work its `input` event started, the render included
 * (Preact renders in a microtask; a chain of microtasks queued after the event's own listeners runs after
 * it); nothing that waits its turn behind other tasks counts. `handled`: from the keydown's time stamp to
 * the main thread being free again (a message posted after the `input` event); `painted`: to the frame
 * after that. The last two include the time the key waited to be dispatched and whatever else ran before.
 */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    type Probe = { own: number[]; handled: number[]; painted: number[] };
    const w = window as unknown as { __keys: Probe; __down: number; __start: number };
    w.__keys = { own: [], handled: [], painted: [] };
    addEventListener(
      'keydown',
      (e) => {
        w.__down = e.timeStamp;
        w.__start = performance.now();
      },
      true,
    );
    // Added to the element the key edits, it runs after that element's own listeners (an editor may stop
    // the event there); the microtasks those queued, the render among them, run before the chain's end.
    addEventListener(
      'input',
      (e) => {
        const start = w.__start;
        const settle = (n: number) =>
          n === 0 ? w.__keys.own.push(performance.now() - start) : queueMicrotask(() => settle(n - 1));
        e.target?.addEventListener('input', () => settle(8), { once: true });
      },
      true,
    );
    addEventListener(
      'input',
      () => {
        const down = w.__down;
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          w.__keys.handled.push(performance.now() - down);
          requestAnimationFrame(() => {
            const after = new MessageChannel();
            after.port1.onmessage = () => w.__keys.painted.push(performance.now() - down);
            after.port2.postMessage(0);
          });
        };
        channel.port2.postMessage(0);
      },
      true,
    );
  });
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

type Keys = { own: number[]; handled: number[]; painted: number[]; cpu: number; script: number; layout: number };

async function typeInto(page: Page, selector: string): Promise<Keys> {
  await page.locator(selector).click();
  await page.keyboard.press('Control+End');
  await installProbe(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  // Seconds of the main thread: all of it, in scripts, and in style and layout.
  const metrics = async () => {
    const m = new Map((await cdp.send('Performance.getMetrics')).metrics.map((x) => [x.name, x.value]));
    const of = (name: string) => m.get(name) ?? NaN;
    return [of('ThreadTime'), of('ScriptDuration'), of('LayoutDuration') + of('RecalcStyleDuration')] as const;
  };
  const start = await metrics();
  for (let i = 0; i < KEYS; i++) {
    await page.keyboard.type(i % 6 === 5 ? ' ' : 'abcdefghij'[i % 10]!);
    await page.waitForTimeout(30);
  }
  await page.waitForTimeout(300);
  const end = await metrics();
  await cdp.detach();
  const perKey = (i: 0 | 1 | 2) => ((end[i] - start[i]) * 1000) / KEYS;
  const keys = await page.evaluate(() => (window as unknown as { __keys: Keys }).__keys);
  return { ...keys, cpu: perKey(0), script: perKey(1), layout: perKey(2) };
}

const t = await startTestServer(config);
const ADMIN = { name: 'Bench', email: 'bench@example.com', password: 'correct horse 1' };
const browser = await launchBrowser({ viewport: { width: 1366, height: 900 } });
try {
  await buildAdmin();
  if ((await t.request('POST', '/users/first-register', { body: ADMIN })).status !== 200) throw new Error('register');
  const s = await t.login(ADMIN.email, ADMIN.password);
  const pageId = (await t.request('POST', '/pages', { token: s.token, body: { title: 'Big page', layout: layout() } }))
    .body.doc.id;
  const paragraphs = Array.from({ length: 250 }, (_, i) => words(20, i));
  const postId = (
    await t.request('POST', '/posts', { token: s.token, body: { title: 'Long post', content: root(paragraphs) } })
  ).body.doc.id;

  const page = browser.page;
  page.setDefaultTimeout(30_000);
  await page.goto(`${t.url}/admin`);
  await logInThroughForm(page, ADMIN);
  await page.getByRole('heading', { name: `Welcome, ${ADMIN.name}` }).waitFor();

  const cases: [string, string, string][] = [
    ['40-block page: a bare input (baseline)', `/collections/pages/${pageId}`, '#bare'],
    ['40-block page: title', `/collections/pages/${pageId}`, '#field-title'],
    ['40-block page: rich text of block 19', `/collections/pages/${pageId}`, '#field-layout-18-body'],
    ['5,000-word post: a bare input (baseline)', `/collections/posts/${postId}`, '#bare'],
    ['5,000-word post: title', `/collections/posts/${postId}`, '#field-title'],
    ['5,000-word post: end of the text', `/collections/posts/${postId}`, '#field-content'],
  ];
  console.log(`${KEYS} keys per case; milliseconds, median / p95 where two figures`);
  console.log(
    '| Case | Own work per key | CPU per key | CPU above the baseline | Script / style and layout per key | Handled | Painted |',
  );
  console.log('|---|---|---|---|---|---|---|');
  let baseline = 0;
  for (const [name, path, selector] of cases) {
    await page.goto(`${t.url}/admin${path}`);
    await page.locator(selector === '#bare' ? '#field-title' : selector).waitFor();
    await page.waitForLoadState('networkidle');
    if (selector === '#bare')
      await page.evaluate(() => document.body.prepend(Object.assign(document.createElement('input'), { id: 'bare' })));
    const r = await typeInto(page, selector);
    if (selector === '#bare') baseline = r.cpu;
    const f = (xs: number[]) => `${quantile(xs, 0.5).toFixed(1)} / ${quantile(xs, 0.95).toFixed(1)}`;
    const above = selector === '#bare' ? '–' : (r.cpu - baseline).toFixed(1);
    const parts = `${r.script.toFixed(1)} / ${r.layout.toFixed(1)}`;
    console.log(
      `| ${name} | ${f(r.own)} | ${r.cpu.toFixed(1)} | ${above} | ${parts} | ${f(r.handled)} | ${f(r.painted)} |`,
    );
  }
} finally {
  await browser.close();
  await t.stop();
}
