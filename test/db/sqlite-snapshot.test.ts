// Runs once (on the SQLite pass): SQLite's own parts, whatever the run's engine.
/**
 * src/db/sqlite/snapshot.ts: a snapshot that fails (here: its target folder does not exist) leaves no
 * connection of its own behind, so once the store closes the database file is free (a restore claims it).
 */
import { afterAll, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { claimDatabaseFile } from '../../src/db/sqlite/claim-file.ts';
import { openSqliteStore } from '../../src/db/sqlite/store.ts';
import { tempDir } from '../harness.ts';

const dir = tempDir('cms-snapshot-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test('a failed snapshot leaves the file free once the store closes', async () => {
  const file = path.join(dir, 'live.db');
  const store = openSqliteStore(file);
  await store.exec('CREATE TABLE t (v INTEGER)');
  await store.run('INSERT INTO t VALUES (1)');
  await expect(store.snapshotTo(path.join(dir, 'no-such-folder', 'copy.db'))).rejects.toThrow(
    /database snapshot failed/,
  );
  await store.close();
  expect(claimDatabaseFile(file)).toBe(true);
});
