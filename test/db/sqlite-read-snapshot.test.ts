// Runs once (on the SQLite pass): SQLite's own parts, whatever the run's engine.
/**
 * src/db/sqlite/read-snapshot.ts: the reads of one turn of the event loop share one read transaction
 * (one read lock on the `-shm` file, taken once), which ends with the turn; every commit of this process
 * ends it, so a read after a write sees the write. The change counters are read in the same snapshot, so
 * they agree with what the turn reads, and take no connection or read transaction of their own.
 */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from 'bun:sqlite';
import { openSqliteStore } from '../../src/db/sqlite/store.ts';
import { SNAPSHOT_MS } from '../../src/db/sqlite/read-snapshot.ts';
import { tempDir } from '../harness.ts';

const file = path.join(tempDir('cms-read-snapshot-'), 'store.db');
const store = openSqliteStore(file);
const other = openSqliteStore(file);
afterAll(async () => {
  await other.close();
  await store.close();
});

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The read locks this process holds on the `-shm` file's reader slots (bytes 123–127: SQLite's unix
 * locking offset 120 plus the read marks 3–7), from /proc/locks. A read transaction holds one of them.
 */
function readerLocksHeld(): number {
  const { ino } = fs.statSync(`${file}-shm`);
  return fs
    .readFileSync('/proc/locks', 'utf8')
    .split('\n')
    .filter((line) => {
      const fields = line.trim().split(/\s+/);
      const start = Number(fields[6]);
      return (
        fields[1] === 'POSIX' &&
        fields[3] === 'READ' &&
        fields[4] === String(process.pid) &&
        fields[5]?.endsWith(`:${ino}`) &&
        start >= 123 &&
        start <= 127
      );
    }).length;
}

function inAnotherProcess(sql: string): void {
  const child = Bun.spawnSync([
    process.execPath,
    '-e',
    `const { Database } = require('bun:sqlite'); const db = new Database(${JSON.stringify(file)}); db.exec('PRAGMA busy_timeout = 5000'); db.exec(${JSON.stringify(sql)}); db.close();`,
  ]);
  if (child.exitCode !== 0) throw new Error(child.stderr.toString());
}

test('setup', async () => {
  await store.exec('CREATE TABLE "t" ("id" INTEGER PRIMARY KEY, "v" INTEGER NOT NULL)');
  await store.exec('CREATE TABLE "_cms_changes" ("name" TEXT PRIMARY KEY, "version" INTEGER NOT NULL)');
  await store.run('INSERT INTO "t" ("id", "v") VALUES (1, 0)');
  await store.run('INSERT INTO "_cms_changes" ("name", "version") VALUES (?, 1)', ['t']);
});

test('the reads of one turn share one read transaction, which ends with the turn', async () => {
  await nextTurn();
  expect(readerLocksHeld()).toBe(0);
  expect(await store.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v: 0 });
  // Between two reads of the turn the read lock stays taken: the next read takes none.
  expect(readerLocksHeld()).toBe(1);
  expect(await store.all('SELECT "v" FROM "t"')).toEqual([{ v: 0 }]);
  expect(readerLocksHeld()).toBe(1);
  await nextTurn();
  expect(readerLocksHeld()).toBe(0);
});

test('a read after a write of this process sees the write, in the same turn', async () => {
  await nextTurn();
  expect(await store.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v: 0 });
  await store.run('UPDATE "t" SET "v" = 1 WHERE "id" = 1');
  expect(await store.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v: 1 });
  // A transaction, and another store of this process on the same file, alike.
  await store.transaction((tx) => tx.run('UPDATE "t" SET "v" = 2 WHERE "id" = 1'));
  expect(await store.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v: 2 });
  expect(await other.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v: 2 });
  await store.run('UPDATE "t" SET "v" = 3 WHERE "id" = 1');
  expect(await other.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v: 3 });
});

/**
 * A connection that is no store of this process (seen as another process's commit would be), ready
 * beforehand: its write, the row's value and the counter's version in one transaction, then takes less
 * than a snapshot lives, as a process started here would not.
 */
function outsideWriter() {
  const outside = new Database(file);
  outside.exec('PRAGMA synchronous = OFF');
  const update = outside.prepare(`UPDATE "_cms_changes" SET "version" = ? WHERE "name" = 't'`);
  const write = outside.prepare('UPDATE "t" SET "v" = ?');
  return {
    commit: outside.transaction((v: number, version: number) => {
      update.run(version);
      write.run(v);
    }),
    close() {
      update.finalize();
      write.finalize();
      outside.close();
    },
  };
}

test('the change counters asked for the latest state see a commit of another connection, in the same turn', async () => {
  const outside = outsideWriter();
  await nextTurn();
  expect((await store.changeCounters({ latest: true })).get('t')).toBe(1);
  expect(await store.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v: 3 });
  outside.commit(4, 2);
  expect((await store.changeCounters({ latest: true })).get('t')).toBe(2);
  // What the counters say changed is there to read.
  expect(await store.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v: 4 });
  outside.close();
});

test('a snapshot serves a few milliseconds at most, however long the turn', async () => {
  await nextTurn();
  expect(await store.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v: 4 });
  inAnotherProcess('UPDATE "t" SET "v" = 5');
  const until = performance.now() + SNAPSHOT_MS + 1;
  while (performance.now() < until) {}
  expect(await store.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v: 5 });
});

test('the change counters agree with the reads of their turn, in the same read transaction', async () => {
  const outside = outsideWriter();
  let v = 5;
  let version = 2;
  try {
    // The other connection's commit must land while the turn's snapshot still serves: a try that a busy
    // machine stretched past that is made again.
    for (let tries = 0; tries < 20; tries++) {
      await nextTurn();
      const started = performance.now();
      expect(await store.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v });
      outside.commit(++v, ++version);
      const counters = await store.changeCounters();
      if (performance.now() - started >= SNAPSHOT_MS) continue;
      // Counters newer than what the turn read would vouch for the older rows, and an answer made of
      // them would be kept as current.
      expect(counters.get('t')).toBe(version - 1);
      expect(readerLocksHeld()).toBe(1);
      await nextTurn();
      expect((await store.changeCounters()).get('t')).toBe(version);
      expect(await store.get('SELECT "v" FROM "t" WHERE "id" = 1')).toEqual({ v });
      return;
    }
    throw new Error('No try ran within the life of a snapshot.');
  } finally {
    outside.close();
  }
});

test('a store holds two connections to its file, the change counters none of their own', async () => {
  const fresh = path.join(path.dirname(file), 'fresh.db');
  const opened = openSqliteStore(fresh);
  try {
    await opened.exec('CREATE TABLE "_cms_changes" ("name" TEXT PRIMARY KEY, "version" INTEGER NOT NULL)');
    await opened.changeCounters();
    const { ino } = fs.statSync(fresh);
    const descriptors = fs.readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return fs.statSync(`/proc/self/fd/${fd}`).ino === ino;
      } catch {
        return false;
      }
    });
    // The writer and the reader.
    expect(descriptors.length).toBe(2);
  } finally {
    await opened.close();
  }
});
