/**
 * What one Local API create costs as the collection grows: the bench's posts (scripts/bench/posts.ts), one
 * awaited create after another, as a seed script writes them. Every `--window` creates it prints the
 * wall time per create, the process's user and system CPU per create (worker threads included: the
 * checkpoints), the checkpoints asked of the worker and the RSS. CPU counts vary less than wall time
 * on a shared machine; a million posts (`--posts 1000000`) needs about 1.3 GB of disk.
 *
 *   bun scripts/bench-local-create.ts [--posts 100000] [--window 10000] [--keep DIR]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getCMS } from '../src/local.ts';
import { manualClock } from '../src/clock.ts';
import { benchUser, postBody, postsConfig } from './bench/posts.ts';

const { values } = parseArgs({
  options: {
    posts: { type: 'string', default: '100000' },
    window: { type: 'string', default: '10000' },
    keep: { type: 'string' },
  },
});
const total = Number(values.posts);
const window = Number(values.window);
const dir = values.keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-local-'));
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'cms.config.ts'), postsConfig());

// Checkpoints are asked of a worker by message: counted here, outside the code measured.
let checkpoints = 0;
const prototype = Worker.prototype as unknown as { postMessage(...args: unknown[]): void };
const post = prototype.postMessage;
prototype.postMessage = function (this: unknown, ...args: unknown[]) {
  checkpoints++;
  post.apply(this, args);
};

const clock = manualClock(Date.parse('2026-01-01T00:00:00Z'));
const cms = await getCMS({
  config: path.join(dir, 'cms.config.ts'),
  clock,
  log: { info() {}, warn: console.warn, error: console.error },
});
await cms.create({ collection: 'users', data: { ...benchUser, role: 'admin' } });
console.log(`posts    wall µs/create  user µs  sys µs  checkpoints  RSS MB`);
const started = performance.now();
let since = performance.now();
let cpu = process.cpuUsage();
let asked = checkpoints;
for (let i = 0; i < total; i++) {
  clock.advance(1000);
  await cms.create({
    collection: 'posts',
    data: { title: `Post ${i}`, body: postBody, status: i % 2 ? 'published' : 'draft', views: i },
  });
  if ((i + 1) % window !== 0) continue;
  const now = performance.now();
  const used = process.cpuUsage(cpu);
  const row = [
    String(i + 1).padEnd(8),
    (((now - since) * 1000) / window).toFixed(1).padStart(15),
    (used.user / window).toFixed(1).padStart(8),
    (used.system / window).toFixed(1).padStart(7),
    String(checkpoints - asked).padStart(12),
    (process.memoryUsage.rss() / 1e6).toFixed(0).padStart(7),
  ];
  console.log(row.join(' '));
  since = now;
  cpu = process.cpuUsage();
  asked = checkpoints;
}
console.log(`${total} creates in ${((performance.now() - started) / 1000).toFixed(1)} s`);
await cms.close();
if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
