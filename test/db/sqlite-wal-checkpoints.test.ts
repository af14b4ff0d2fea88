// Runs once (on the SQLite pass): SQLite's own parts, whatever the run's engine.
/**
 * WAL checkpoints run in a worker, not inside a request's COMMIT (src/db/sqlite/checkpointer.ts): with
 * SQLite's automatic checkpoint raised on the writer, the write-ahead log must still stay bounded under a
 * long run of writes, and nothing written is lost. The wal-index is read by another process: this one
 * holds the store, and a descriptor of its own on the `-shm` file would drop SQLite's locks on it.
 */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from 'bun:sqlite';
import { openSqliteStore } from '../../src/db/sqlite/store.ts';
import {
  CHECKPOINT_COMMITS,
  CHECKPOINT_FRAMES,
  HARD_LIMIT_FRAMES,
  startCheckpointer,
} from '../../src/db/sqlite/checkpointer.ts';
import { tempDir } from '../harness.ts';

const dir = tempDir('cms-wal-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The largest the log has been, in frames: its file keeps that length when the log starts again. */
const walPeakFrames = (file: string) => Math.max(0, (fs.statSync(`${file}-wal`).size - 32) / (24 + 4096));

/** The wal-index header another process sees: mxFrame (frames in the log) and nBackfill (checkpointed). */
function walIndex(file: string): { frames: number; backfilled: number } {
  const script = `const b = require('node:fs').readFileSync(process.argv[1]).subarray(0, 100); const w = new Uint32Array(b.buffer, b.byteOffset, 25); console.log(JSON.stringify({ frames: w[4], backfilled: w[24] }));`;
  const child = Bun.spawnSync([process.execPath, '-e', script, `${file}-shm`]);
  return JSON.parse(child.stdout.toString());
}

/** A table `t` in a WAL database of its own, and a checkpointer for it reading `now`. */
function walTable(name: string, now: () => number) {
  const file = path.join(dir, name);
  const db = new Database(file, { create: true });
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('PRAGMA synchronous = NORMAL');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
  return { db, checkpointer: startCheckpointer(file, now, () => {}) };
}

test('the log stays bounded through thousands of commits, and every row is there', async () => {
  const file = path.join(dir, 'wal.db');
  const store = openSqliteStore(file);
  await store.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)');
  const body = 'x'.repeat(3000); // about one page per row: one commit, one or two frames
  const writes = CHECKPOINT_FRAMES * 5;
  for (let i = 0; i < writes; i++) await store.run('INSERT INTO t (body) VALUES (?)', [body]);
  const peak = walPeakFrames(file);
  // Writes this fast never pause for the worker's checkpoint to complete: the committing thread's own,
  // past the hard limit, bounds the log. It is skipped while the worker's runs, but writes wait for the
  // worker once CHECKPOINT_COMMITS commits were made meanwhile: each writes the row's new page and the
  // table's root page, and now and then a third when an interior page splits.
  expect(peak).toBeGreaterThan(CHECKPOINT_FRAMES);
  expect(peak).toBeLessThan(HARD_LIMIT_FRAMES + 3 * CHECKPOINT_COMMITS);
  // Once writes stop, only the worker can checkpoint (nothing commits): it backfills the whole log
  // (nBackfill, the word after the two header copies, reaches mxFrame), and the next write starts it again.
  const backfilled = () => {
    const { frames, backfilled } = walIndex(file);
    return backfilled >= frames;
  };
  for (const deadline = Date.now() + 10_000; !backfilled() && Date.now() < deadline; ) await Bun.sleep(20);
  expect(backfilled()).toBe(true);
  await store.run('INSERT INTO t (body) VALUES (?)', ['one more']);
  expect(walIndex(file).frames).toBeLessThan(10);
  await store.close();
  const check = new Database(file, { readonly: true });
  expect(check.query('SELECT count(*) AS n FROM t WHERE body = ?').get(body)).toEqual({ n: writes });
  expect(check.query('SELECT count(*) AS n FROM t').get()).toEqual({ n: writes + 1 });
  check.close();
});

test('a steady run of commits asks the worker for a checkpoint every CHECKPOINT_COMMITS commits, not after each one', async () => {
  const { db, checkpointer } = walTable('steady.db', () => performance.now());
  const commits = CHECKPOINT_COMMITS * 4;
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  const started = performance.now();
  for (let i = 0; i < commits; i++) {
    insert.run('x'.repeat(200));
    checkpointer.afterCommit();
    // A short pause after each commit, as between requests: each checkpoint's answer arrives before a
    // few more commits are made.
    await Bun.sleep(1);
  }
  // One per CHECKPOINT_COMMITS, and one more per second the run took at most (a slow machine's trickle).
  const seconds = (performance.now() - started) / 1000;
  expect(checkpointer.asked()).toBeGreaterThan(0);
  expect(checkpointer.asked()).toBeLessThanOrEqual(commits / CHECKPOINT_COMMITS + Math.ceil(seconds) + 1);
  // Once the writes pause, the commits after the last checkpoint are asked for too.
  const before = checkpointer.asked();
  insert.run('last');
  checkpointer.afterCommit();
  for (const deadline = Date.now() + 10_000; checkpointer.asked() === before && Date.now() < deadline; )
    await Bun.sleep(20);
  expect(checkpointer.asked()).toBe(before + 1);
  insert.finalize();
  await checkpointer.close();
  db.close();
});

test('a checkpoint that falls behind CHECKPOINT_COMMITS commits makes the next writes wait for it', async () => {
  // A clock that stands still: only the count of commits asks for a checkpoint.
  const { db, checkpointer } = walTable('behind.db', () => 0);
  const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
  // Commits in one turn of the event loop: the worker's answer cannot arrive in between.
  for (let i = 0; i < CHECKPOINT_COMMITS; i++) {
    insert.run('x');
    checkpointer.afterCommit();
  }
  expect(checkpointer.asked()).toBe(1);
  for (let i = 0; i < CHECKPOINT_COMMITS - 1; i++) {
    insert.run('x');
    checkpointer.afterCommit();
    expect(checkpointer.behind()).toBeNull();
  }
  insert.run('x');
  checkpointer.afterCommit();
  const behind = checkpointer.behind();
  expect(behind).toBeInstanceOf(Promise);
  await behind;
  expect(checkpointer.behind()).toBeNull();
  insert.finalize();
  await checkpointer.close();
  db.close();
});
