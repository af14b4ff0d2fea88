/**
 * `bun scripts/bench-import.ts`: `cms import wordpress` on a generated export (docs/benchmarks.md, docs/moving-in.md).
 * Writes a WordPress export of N posts (each with a few paragraphs, a heading, a list, two terms, and every
 * fifth one a featured image) and M distinct PNG attachments in a local uploads folder, writes the config with
 * `--emit-config`, then runs the import twice in a `cms` process of its own on a fresh SQLite project: the first
 * run's time, the rerun's (everything unchanged), each run's CPU time (user and system) and peak RSS.
 * Usage: bun scripts/bench-import.ts [--posts 10000] [--images 2000] [--keep]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '10000' },
    images: { type: 'string', default: '2000' },
    keep: { type: 'boolean', default: false },
  },
});
const POSTS = Number(values.posts);
const IMAGES = Number(values.images);
const MAIN = path.join(import.meta.dir, '../src/cli/main.ts');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-import-'));
const uploads = path.join(work, 'uploads');

async function writeImages(): Promise<void> {
  for (let i = 0; i < IMAGES; i++) {
    const folder = path.join(uploads, '2024', String((i % 12) + 1).padStart(2, '0'));
    fs.mkdirSync(folder, { recursive: true });
    const color = `#${(i * 2654435761).toString(16).padStart(6, '0').slice(-6)}`;
    const bytes = await sharp({ create: { width: 32 + (i % 7), height: 24, channels: 3, background: color } })
      .png()
      .toBuffer();
    fs.writeFileSync(path.join(folder, `image-${i}.png`), bytes);
  }
}

function wxr(): string {
  const site = 'https://bench.example';
  const items: string[] = [];
  for (let i = 0; i < IMAGES; i++) {
    const month = String((i % 12) + 1).padStart(2, '0');
    const url = `${site}/wp-content/uploads/2024/${month}/image-${i}.png`;
    items.push(`<item><title>image-${i}</title><link>${site}/image-${i}/</link><guid isPermaLink="false">${url}</guid>
<content:encoded><![CDATA[]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>${100000 + i}</wp:post_id><wp:post_date>2024-${month}-01 08:00:00</wp:post_date><wp:post_date_gmt>2024-${month}-01 08:00:00</wp:post_date_gmt>
<wp:post_name>image-${i}</wp:post_name><wp:status>inherit</wp:status><wp:post_parent>0</wp:post_parent><wp:menu_order>0</wp:menu_order>
<wp:post_type>attachment</wp:post_type><wp:attachment_url>${url}</wp:attachment_url></item>`);
  }
  for (let i = 1; i <= POSTS; i++) {
    const image = i % 5 === 0 ? i % IMAGES : -1;
    const month = String((i % 12) + 1).padStart(2, '0');
    const body = `<!-- wp:paragraph -->
<p>Post ${i} starts with <strong>bold</strong> and <a href="${site}/2024/${month}/post-${Math.max(1, i - 1)}/">the one before</a>.</p>
<!-- /wp:paragraph -->
<!-- wp:heading --><h2>Part two</h2><!-- /wp:heading -->
<!-- wp:list --><ul><li>one</li><li>two<ul><li>two and a half</li></ul></li></ul><!-- /wp:list -->
Bare line one
bare line two

${'Words for a body of some length. '.repeat(20)}`;
    items.push(`<item><title>Post ${i}</title><link>${site}/2024/${month}/post-${i}/</link><dc:creator><![CDATA[writer]]></dc:creator>
<guid isPermaLink="false">${site}/?p=${i}</guid><content:encoded><![CDATA[${body}]]></content:encoded><excerpt:encoded><![CDATA[]]></excerpt:encoded>
<wp:post_id>${i}</wp:post_id><wp:post_date>2024-${month}-02 08:00:00</wp:post_date><wp:post_date_gmt>2024-${month}-02 08:00:00</wp:post_date_gmt>
<wp:post_name>post-${i}</wp:post_name><wp:status>publish</wp:status><wp:post_parent>0</wp:post_parent><wp:menu_order>0</wp:menu_order>
<wp:post_type>post</wp:post_type><category domain="category" nicename="news"><![CDATA[News]]></category>
<category domain="post_tag" nicename="tag-${i % 50}"><![CDATA[Tag ${i % 50}]]></category>
${image >= 0 ? `<wp:postmeta><wp:meta_key>_thumbnail_id</wp:meta_key><wp:meta_value>${100000 + image}</wp:meta_value></wp:postmeta>` : ''}</item>`);
  }
  const tags = Array.from(
    { length: 50 },
    (_, i) =>
      `<wp:tag><wp:term_id>${10 + i}</wp:term_id><wp:tag_slug>tag-${i}</wp:tag_slug><wp:tag_name>Tag ${i}</wp:tag_name></wp:tag>`,
  ).join('\n');
  return `<?xml version="1.0" encoding="UTF-8" ?>
<rss version="2.0" xmlns:excerpt="http://wordpress.org/export/1.2/excerpt/" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Bench</title><link>${site}</link><wp:base_site_url>${site}</wp:base_site_url><wp:base_blog_url>${site}</wp:base_blog_url>
<wp:author><wp:author_login>writer</wp:author_login><wp:author_email>writer@bench.example</wp:author_email><wp:author_display_name>Writer</wp:author_display_name></wp:author>
<wp:category><wp:term_id>2</wp:term_id><wp:category_nicename>news</wp:category_nicename><wp:category_parent></wp:category_parent><wp:cat_name>News</wp:cat_name></wp:category>
${tags}
${items.join('\n')}
</channel></rss>`;
}

function cms(...args: string[]) {
  const started = performance.now();
  const child = Bun.spawnSync([process.execPath, MAIN, ...args], {
    cwd: work,
    env: { ...process.env, NODE_ENV: 'production', CMS_TEST_ENGINE: '' },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const seconds = (performance.now() - started) / 1000;
  if (child.exitCode !== 0) throw new Error(`cms ${args.join(' ')} failed: ${child.stderr.toString()}`);
  // CPU time beside the wall clock: on a shared machine the wall clock also counts the neighbours' work.
  const cpu = child.resourceUsage?.cpuTime;
  const cpuSeconds = cpu ? Number(cpu.user + cpu.system) / 1e6 : 0;
  return { seconds, cpuSeconds, maxRSS: child.resourceUsage?.maxRSS ?? 0, out: child.stdout.toString() };
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(0)} MB`;

console.log(`writing ${IMAGES} images and an export of ${POSTS} posts to ${work}`);
await writeImages();
fs.writeFileSync(path.join(work, 'export.xml'), wxr());
console.log(`export: ${mb(fs.statSync(path.join(work, 'export.xml')).size)}`);
cms('import', 'wordpress', 'export.xml', '--emit-config', 'cms.config.ts');
cms('migrate:create', 'initial');
cms('migrate');
for (const label of ['first run', 'rerun']) {
  const run = cms(
    'import',
    'wordpress',
    'export.xml',
    '--uploads',
    uploads,
    '--report',
    `${label.replace(' ', '-')}.json`,
  );
  const report = JSON.parse(run.out);
  console.log(
    `${label}: ${run.seconds.toFixed(1)} s (CPU ${run.cpuSeconds.toFixed(1)} s), peak RSS ${mb(run.maxRSS)}; posts ${JSON.stringify(report.collections.posts)}; media ${JSON.stringify(report.media)}`,
  );
}
if (!values.keep) fs.rmSync(work, { recursive: true, force: true });
