// Runs once (on the SQLite pass): SQLite's own parts, whatever the run's engine.
/**
 * src/db/sqlite/commit-watcher.ts: the watcher sees every commit, by another connection of this process
 * or by another process, and nothing when nothing committed; it looks at most once per turn of the event
 * loop unless this process committed; and it leaves SQLite's locks on the `-shm` file alone (a descriptor
 * of its own on that file, opened and closed, would drop them for the whole process).
 */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from 'bun:sqlite';
import { commitWatcher, noteCommit } from '../../src/db/sqlite/commit-watcher.ts';
import { tempDir } from '../harness.ts';

const dir = tempDir('cms-watch-');
const file = path.join(dir, 'watched.db');
const writer = new Database(file, { create: true });
writer.exec('PRAGMA journal_mode = WAL');
writer.exec('CREATE TABLE t (v INTEGER)');
afterAll(() => {
  writer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function inAnotherProcess(sql: string): void {
  const child = Bun.spawnSync([
    process.execPath,
    '-e',
    `const { Database } = require('bun:sqlite'); const db = new Database(${JSON.stringify(file)}); db.exec(${JSON.stringify(sql)}); db.close();`,
  ]);
  if (child.exitCode !== 0) throw new Error(child.stderr.toString());
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** The POSIX locks this process holds on a file, from /proc/locks (by device and inode). */
function locksHeldOn(name: string): number {
  const { ino } = fs.statSync(name);
  return fs
    .readFileSync('/proc/locks', 'utf8')
    .split('\n')
    .filter((line) => {
      const fields = line.trim().split(/\s+/);
      return fields[1] === 'POSIX' && fields[4] === String(process.pid) && fields[5]?.endsWith(`:${ino}`);
    }).length;
}

test('reports a change once per commit, and none without one', async () => {
  const watcher = commitWatcher(file);
  try {
    expect(watcher.changed()).toBe(true);
    expect(watcher.changed()).toBe(false);
    await nextTurn();
    writer.exec('INSERT INTO t VALUES (1)');
    noteCommit(file);
    expect(watcher.changed()).toBe(true);
    expect(watcher.changed()).toBe(false);
    await nextTurn();
    inAnotherProcess('INSERT INTO t VALUES (2)');
    expect(watcher.changed()).toBe(true);
    expect(watcher.changed()).toBe(false);
    // A checkpoint that restarts the log changes no data, and the next commit is still seen.
    writer.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    await nextTurn();
    watcher.changed();
    writer.exec('INSERT INTO t VALUES (3)');
    noteCommit(file);
    expect(watcher.changed()).toBe(true);
  } finally {
    watcher.close();
  }
});

test('within one turn it looks once, unless this process committed meanwhile', async () => {
  const watcher = commitWatcher(file);
  try {
    await nextTurn();
    watcher.changed();
    // Another process's commit is seen from the next turn on: a request acknowledged after it arrives later.
    inAnotherProcess('INSERT INTO t VALUES (4)');
    expect(watcher.changed()).toBe(false);
    await nextTurn();
    expect(watcher.changed()).toBe(true);
    // This process's own commit is seen at once.
    writer.exec('INSERT INTO t VALUES (5)');
    noteCommit(path.join(dir, '.', 'watched.db'));
    expect(watcher.changed()).toBe(true);
  } finally {
    watcher.close();
  }
});

test('SQLite keeps its lock on the -shm file while the watcher works and after it closes', async () => {
  const reader = new Database(file, { readonly: true });
  reader.query('SELECT count(*) FROM t').get();
  const shm = `${file}-shm`;
  const before = locksHeldOn(shm);
  expect(before).toBeGreaterThan(0);
  const watcher = commitWatcher(file);
  for (let i = 0; i < 3; i++) {
    writer.exec('INSERT INTO t VALUES (6)');
    noteCommit(file);
    watcher.changed();
    await nextTurn();
  }
  expect(locksHeldOn(shm)).toBeGreaterThanOrEqual(before);
  watcher.close();
  expect(locksHeldOn(shm)).toBeGreaterThan(0);
  reader.close();
});
