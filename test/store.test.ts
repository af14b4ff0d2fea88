/** The SQLite store's guarantees that the operation layer relies on (docs/architecture.md, "The storage seam"). */
import { afterAll, describe, expect, test } from 'bun:test';
import path from 'node:path';
import { openSqliteStore } from '../src/db/sqlite/store.ts';
import { tempDir } from './harness.ts';

describe('SQLite store', () => {
  const file = path.join(tempDir(), 'store.db');
  const store = openSqliteStore(file);
  const other = openSqliteStore(file);
  afterAll(async () => {
    await other.close();
    await store.close();
  });

  test('setup', async () => {
    await store.exec('CREATE TABLE "counter" ("id" INTEGER PRIMARY KEY, "n" INTEGER NOT NULL)');
    expect(await store.insert('INSERT INTO "counter" ("n") VALUES (?)', [0])).toBe(1);
  });

  test('transactions never interleave across awaits: read-then-write loses no update', async () => {
    const bump = (on: typeof store) => on.transaction(async (tx) => {
      const { n } = (await tx.get<{ n: number }>('SELECT "n" FROM "counter" WHERE "id" = 1'))!;
      await Bun.sleep(1);
      await tx.run('UPDATE "counter" SET "n" = ? WHERE "id" = 1', [n + 1]);
    });
    // Two stores of one process on one file share the queue, so this neither interleaves nor waits for busy_timeout.
    await Promise.all([bump(store), bump(other), bump(store), bump(other)]);
    expect(await store.get('SELECT "n" FROM "counter"')).toEqual({ n: 4 });
  });

  test('a read outside a transaction never sees its uncommitted writes', async () => {
    let seenOutside: unknown;
    await expect(store.transaction(async (tx) => {
      await tx.run('UPDATE "counter" SET "n" = 100');
      expect(await tx.get('SELECT "n" FROM "counter"')).toEqual({ n: 100 });
      seenOutside = await store.get('SELECT "n" FROM "counter"');
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    expect(seenOutside).toEqual({ n: 4 });
    expect(await store.get('SELECT "n" FROM "counter"')).toEqual({ n: 4 });
  });

  test('a write outside a transaction waits for the transaction in flight', async () => {
    let release!: () => void;
    let begun!: () => void;
    const started = new Promise<void>((resolve) => (begun = resolve));
    const held = store.transaction(async (tx) => {
      begun();
      await new Promise<void>((resolve) => (release = resolve));
      await tx.run('UPDATE "counter" SET "n" = 10');
    });
    await started;
    const outside = store.run('UPDATE "counter" SET "n" = "n" + 1');
    await Bun.sleep(5);
    release();
    await Promise.all([held, outside]);
    expect(await store.get('SELECT "n" FROM "counter"')).toEqual({ n: 11 });
  });

  test('a unique violation names its column through the dialect', async () => {
    await store.exec('CREATE TABLE "people" ("id" INTEGER PRIMARY KEY, "email" TEXT UNIQUE)');
    await store.run('INSERT INTO "people" ("email") VALUES (?)', ['a@example.com']);
    const error = await store.run('INSERT INTO "people" ("email") VALUES (?)', ['a@example.com']).catch((e) => e);
    expect(store.dialect.uniqueViolation(error)).toBe('email');
  });
});
