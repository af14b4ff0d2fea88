/**
 * src/db/sqlite/commit-watcher.ts: both ways of noticing a commit to a SQLite file — the mapped `-shm`
 * header and `PRAGMA data_version` (where no `-shm` can be mapped) — see every commit, by another
 * connection of this process or by another process, and nothing when nothing committed.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from 'bun:sqlite';
import { commitWatcher } from '../src/db/sqlite/commit-watcher.ts';
import { tempDir } from './harness.ts';

const dir = tempDir('cms-watch-');
const file = path.join(dir, 'watched.db');
const writer = new Database(file, { create: true });
writer.exec('PRAGMA journal_mode = WAL');
writer.exec('CREATE TABLE t (v INTEGER)');
const reader = new Database(file, { readonly: true });
afterAll(() => {
  reader.close();
  writer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function inAnotherProcess(sql: string): void {
  const child = Bun.spawnSync([process.execPath, '-e', `const { Database } = require('bun:sqlite'); const db = new Database(${JSON.stringify(file)}); db.exec(${JSON.stringify(sql)}); db.close();`]);
  if (child.exitCode !== 0) throw new Error(child.stderr.toString());
}

describe.each([
  ['shm', file],
  // No `-shm` beside this name: the watcher falls back to PRAGMA data_version on the reader.
  ['data_version', path.join(dir, 'no-such.db')],
] as const)('via %s', (via, watched) => {
  test('reports a change once per commit, and none without one', () => {
    const changed = commitWatcher(watched, reader);
    expect(changed.via).toBe(via);
    expect(changed()).toBe(true);
    expect(changed()).toBe(false);
    writer.exec('INSERT INTO t VALUES (1)');
    expect(changed()).toBe(true);
    expect(changed()).toBe(false);
    inAnotherProcess('INSERT INTO t VALUES (2)');
    expect(changed()).toBe(true);
    expect(changed()).toBe(false);
    // A checkpoint that restarts the log changes no data, and the next commit is still seen.
    writer.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    changed();
    writer.exec('INSERT INTO t VALUES (3)');
    expect(changed()).toBe(true);
  });
});
