/**
 * Figure for the note: what one run of the job runner costs while 10,000 jobs are pending in the future
 * (none due). The runner only asks the (state, at) index for due work, so the cost should not grow
 * with the number of future jobs; the same run over an empty table and over 100,000 future jobs is
 * printed beside it, with the query plans of the claim.
 *
 *   bun scripts/bench-jobs.ts
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCMS } from '../src/create-cms.ts';
import type { CMS } from '../src/cms.ts';
import { manualClock } from '../src/clock.ts';
import { runJobs } from '../src/jobs/run-jobs.ts';
import { claimStatement, purgeStatement, releaseStatement } from '../src/versions/jobs-store.ts';

const RUNS = 2000;
const quiet = { info() {}, warn() {}, error() {} };
const START = Date.parse('2026-01-01T00:00:00Z');

async function withJobs(futureJobs: number): Promise<{ medianUs: number; p99Us: number; plans: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-jobs-'));
  const clock = manualClock(START);
  const cms = await createCMS({
    config: {
      database: path.join(dir, 'data/cms.db'),
      collections: [{ slug: 'posts', drafts: true, fields: [{ name: 'title', type: 'text' }] }],
    },
    rootDir: dir,
    clock,
    log: quiet,
  });
  await insertFutureJobs(cms, futureJobs);
  for (let i = 0; i < 200; i++) await runJobs(cms); // warm up prepared statements and the JIT
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    clock.advance(60_000); // a minute per run, as the loop does; the jobs stay days ahead
    const t0 = Bun.nanoseconds();
    const counts = await runJobs(cms);
    times.push((Bun.nanoseconds() - t0) / 1000);
    if (counts.jobs.ran || counts.jobs.failed) throw new Error('a future job ran');
  }
  // The three statements a run makes (webhook retries are the webhooks branch's).
  const plans = await Promise.all(
    Object.entries({ claim: claimStatement, release: releaseStatement, purge: purgeStatement }).map(
      async ([name, build]) => {
        const { sql, params } = build(cms.store.dialect, clock.now());
        return `${name}: ${await explain(cms, sql, params)}`;
      },
    ),
  );
  await cms.close();
  fs.rmSync(dir, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  return { medianUs: times[Math.floor(times.length / 2)], p99Us: times[Math.floor(times.length * 0.99)], plans };
}

async function explain(cms: CMS, sql: string, params: unknown[]): Promise<string> {
  // Not a plain SELECT, so the store runs it on the write connection, which is what the real statement uses.
  return (await cms.store.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params)).map((r) => r.detail).join('; ');
}

/** Jobs spread over the 30 days after the whole benchmark's time span. */
async function insertFutureJobs(cms: CMS, count: number): Promise<void> {
  const horizon = START + (RUNS + 1000) * 60_000;
  const createdAt = new Date(START).toISOString();
  await cms.store.transaction(async (tx) => {
    for (let i = 0; i < count; i += 500) {
      const batch = Array.from({ length: Math.min(500, count - i) }, (_, j) => ({
        action: (i + j) % 2 ? 'publish' : 'unpublish',
        kind: 'collection',
        slug: 'posts',
        parent: i + j + 1,
        at: horizon + Math.floor(((i + j) / count) * 30 * 24 * 3600_000),
        state: 'pending',
        createdAt,
      }));
      await tx.run(
        `INSERT INTO "_cms_jobs" ("action", "kind", "slug", "parent", "at", "state", "createdAt") VALUES ${batch.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        batch.flatMap((j) => [j.action, j.kind, j.slug, j.parent, j.at, j.state, j.createdAt]),
      );
    }
  });
}

const rows: [string, Awaited<ReturnType<typeof withJobs>>][] = [];
for (const n of [0, 10_000, 100_000]) rows.push([n.toLocaleString('en'), await withJobs(n)]);
console.log(`Job runner, one run with nothing due (median and p99 of ${RUNS} runs):`);
for (const [n, r] of rows)
  console.log(
    `  ${n.padStart(7)} pending future jobs: median ${r.medianUs.toFixed(1)} µs, p99 ${r.p99Us.toFixed(1)} µs`,
  );
console.log('Query plans:');
for (const plan of rows[1][1].plans) console.log(`  ${plan}`);
