/**
 * Figures for docs/replication.md and docs/benchmarks.md, in one run:
 * - write throughput of the same creates (concurrent, through the Local API, so group commit applies as it
 *   does for HTTP) with no replica, an async replica and a sync replica in a folder, in alternating short
 *   rounds so drift of the machine's speed hits all alike; ratios are medians of the rounds against none;
 * - replica lag p99 while the async rounds run (sampled every 10 ms);
 * - restore time: a database of --mb megabytes, written with an async replica, then a restart (a snapshot
 *   of it all) and 1,000 more creates, rebuilt from the replica with `cms replica verify`'s code
 *   (snapshot, segments, integrity check).
 *
 * `--s3` puts the restore's replica on the S3-compatible server the tests use (s3rver on loopback,
 * test/support/s3-server.ts) instead of a folder; `--after` sets the creates after the snapshot (one
 * transaction each, shipped in the segments the restore replays); `--rounds 0` measures the restore only.
 *
 *   bun scripts/bench-replica.ts                       # 5 rounds of 3 s, a 64 MB database
 *   bun scripts/bench-replica.ts --rounds 10 --seconds 5 --mb 1024
 *   bun scripts/bench-replica.ts --rounds 0 --mb 1024 --s3 --after 20000
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startReplicaFor } from '../src/cli/replica.ts';
import type { CMS } from '../src/cms.ts';
import { createCMS } from '../src/create-cms.ts';
import { localAPI } from '../src/local.ts';
import { verifyReplica } from '../src/replica/restore-replica.ts';
import { replicaOf } from '../src/replica/running.ts';
import { startS3Server, type S3TestServer } from '../test/support/s3-server.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    mb: { type: 'string', default: '64' },
    after: { type: 'string', default: '1000' },
    s3: { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-bench-replica-'));
const quiet = { info() {}, warn() {}, error: console.error };
let s3: S3TestServer | null = null;
const notes = [{ slug: 'notes', access: { create: () => true }, fields: [{ name: 'text', type: 'text' as const }] }];

function replicaPlace(dir: string) {
  if (!s3) return { url: path.join(dir, 'replica') };
  const s3Options = { endpoint: s3.endpoint, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return { url: `s3://${s3.bucket}/${path.basename(dir)}`, s3: s3Options };
}

async function instance(name: string, mode: 'none' | 'async' | 'sync'): Promise<CMS> {
  const dir = path.join(root, name);
  const cms = await createCMS({
    config: {
      database: path.join(dir, 'data/cms.db'),
      collections: notes,
      ...(mode === 'none' ? {} : { replica: { ...replicaPlace(dir), mode } }),
    },
    rootDir: dir,
    log: quiet,
  });
  await startReplicaFor(cms);
  return cms;
}

/** Creates per second for `seconds`, `concurrency` writers at once. */
async function writeRate(cms: CMS): Promise<number> {
  const api = localAPI(cms);
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const writer = async () => {
    while (performance.now() < until) {
      await api.create({ collection: 'notes', data: { text: `note ${done}` } });
      done++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, writer));
  return done / seconds;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)] ?? 0;

async function throughput() {
  const none = await instance('none', 'none');
  const asyncCMS = await instance('async', 'async');
  const syncCMS = await instance('sync', 'sync');
  const rates = { none: [] as number[], async: [] as number[], sync: [] as number[] };
  const lags: number[] = [];
  for (let round = 0; round < rounds; round++) {
    rates.none.push(await writeRate(none));
    const sampler = setInterval(() => lags.push(replicaOf(asyncCMS.store)!.lagMs()), 10);
    rates.async.push(await writeRate(asyncCMS));
    clearInterval(sampler);
    rates.sync.push(await writeRate(syncCMS));
  }
  const ratio = (mode: 'async' | 'sync') => median(rates[mode].map((r, i) => r / rates.none[i]!));
  console.log(`writes/s (median of ${rounds} rounds of ${seconds} s, ${concurrency} writers):`);
  console.log(`  none  ${median(rates.none).toFixed(0)}`);
  console.log(`  async ${median(rates.async).toFixed(0)}  (${(ratio('async') * 100).toFixed(1)}% of none)`);
  console.log(`  sync  ${median(rates.sync).toFixed(0)}  (${(ratio('sync') * 100).toFixed(1)}% of none)`);
  console.log(`async replica lag p99 under load: ${p99(lags)} ms (${lags.length} samples)`);
  for (const cms of [none, asyncCMS, syncCMS]) await cms.close();
}

try {
  if (rounds > 0) await throughput();
  // Restore time: a database of about --mb MB with an async replica, then rebuilt from it.
  const big = await instance('restore', 'async');
  const padding = 'x'.repeat(4000);
  const target = Number(values.mb) * 1024 * 1024;
  const file = big.config.databasePath;
  const api = localAPI(big);
  while (fs.statSync(file).size + (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0) < target)
    await Promise.all(Array.from({ length: 64 }, () => api.create({ collection: 'notes', data: { text: padding } })));
  await big.close();
  const bytes = fs.statSync(file).size;
  // Restarted, as a day's snapshot would: the restore below starts from a snapshot of the whole database,
  // then replays what came after it.
  if (values.s3) s3 = await startS3Server('bench-replica');
  const next = await instance('restore', 'async');
  const after = localAPI(next);
  for (let i = 0; i < Number(values.after) / 20; i++)
    await Promise.all(Array.from({ length: 20 }, () => after.create({ collection: 'notes', data: { text: 'after' } })));
  await next.close();
  const started = performance.now();
  const rebuilt = await verifyReplica(next.config);
  const took = (performance.now() - started) / 1000;
  console.log(
    `restore of a ${(bytes / 1_048_576).toFixed(0)} MB database from ${s3 ? 'an S3-compatible server (s3rver, loopback)' : 'a folder'} (snapshot + ${rebuilt.segments} segments, transaction ${rebuilt.txid}): ${took.toFixed(1)} s`,
  );
} finally {
  await s3?.stop();
  fs.rmSync(root, { recursive: true, force: true });
}
