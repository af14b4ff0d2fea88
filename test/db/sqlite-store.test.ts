// Runs once (on the SQLite pass): SQLite's own parts, whatever the run's engine.
/** The SQLite store's guarantees that the operation layer relies on (docs/architecture.md, "The storage seam"). */
import { afterAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { Database } from 'bun:sqlite';
import { openSqliteStore } from '../../src/db/sqlite/store.ts';
import { tempDir } from '../harness.ts';

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
    const bump = (on: typeof store) =>
      on.transaction(async (tx) => {
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
    await expect(
      store.transaction(async (tx) => {
        await tx.run('UPDATE "counter" SET "n" = 100');
        expect(await tx.get('SELECT "n" FROM "counter"')).toEqual({ n: 100 });
        seenOutside = await store.get('SELECT "n" FROM "counter"');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
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

describe('SQLite store: group commit (src/db/sqlite/write-turn.ts)', () => {
  const file = path.join(tempDir(), 'group.db');
  const store = openSqliteStore(file);
  const other = openSqliteStore(file);
  afterAll(async () => {
    await other.close();
    await store.close();
  });
  const insert = (on: typeof store, email: string) =>
    on.transaction((tx) => tx.run('INSERT INTO "people" ("email") VALUES (?)', [email]));
  // A fresh connection: what another process sees, committed rows only.
  const committedEmails = () => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.query('SELECT "email" FROM "people" ORDER BY "id"').all() as { email: string }[]).map((r) => r.email);
    } finally {
      db.close();
    }
  };

  test('setup', async () => {
    await store.exec('CREATE TABLE "people" ("id" INTEGER PRIMARY KEY, "email" TEXT UNIQUE)');
  });

  test('writes made together share one commit: the WAL grows by a batch, not by a commit per write', async () => {
    const walFrames = () => Math.max(0, (fs.statSync(`${file}-wal`).size - 32) / (24 + 4096));
    const before = walFrames();
    await Promise.all(Array.from({ length: 40 }, (_, i) => insert(store, `p${i}@example.com`)));
    // A commit per write appends at least one page each (40+ frames); one batch writes each changed page once.
    expect(walFrames() - before).toBeLessThan(10);
    expect(committedEmails()).toHaveLength(40);
  });

  test('two stores of one process on one file: a batch on one commits before the other writes', async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => insert(i % 2 ? store : other, `s${i}@example.com`)));
    expect(committedEmails()).toEqual(
      expect.arrayContaining(Array.from({ length: 10 }, (_, i) => `s${i}@example.com`)),
    );
  });

  test('every write is committed by the time its promise resolves', async () => {
    const seen = await Promise.all(
      Array.from({ length: 10 }, (_, i) => insert(store, `seen${i}@example.com`).then(() => committedEmails())),
    );
    seen.forEach((emails, i) => expect(emails).toContain(`seen${i}@example.com`));
  });

  test('a failing write in a batch undoes only its own statements; the others commit', async () => {
    const results = await Promise.allSettled([
      insert(store, 'a1@example.com'),
      store.transaction(async (tx) => {
        await tx.run('INSERT INTO "people" ("email") VALUES (?)', ['half@example.com']);
        await tx.run('INSERT INTO "people" ("email") VALUES (?)', ['a1@example.com']);
      }),
      insert(other, 'a2@example.com'),
      store.transaction(async (tx) => {
        await tx.run('INSERT INTO "people" ("email") VALUES (?)', ['thrown@example.com']);
        throw new Error('bad input');
      }),
      insert(store, 'a3@example.com'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled']);
    const emails = committedEmails();
    expect(emails).toEqual(expect.arrayContaining(['a1@example.com', 'a2@example.com', 'a3@example.com']));
    expect(emails).not.toContain('half@example.com');
    expect(emails).not.toContain('thrown@example.com');
  });

  test('a write outside a transaction, made while a batch is open, is committed when it resolves', async () => {
    const inBatch = insert(store, 'b1@example.com');
    // Let it run: its write is done, its commit waits for the end of this turn of the event loop.
    for (let i = 0; i < 20; i++) await null;
    expect(committedEmails()).not.toContain('b1@example.com');
    await store.run('INSERT INTO "people" ("email") VALUES (?)', ['b2@example.com']);
    expect(committedEmails()).toEqual(expect.arrayContaining(['b1@example.com', 'b2@example.com']));
    await inBatch;
  });

  test('closing the store commits the open batch', async () => {
    const file2 = path.join(tempDir(), 'close.db');
    const s = openSqliteStore(file2);
    await s.exec('CREATE TABLE "t" ("id" INTEGER PRIMARY KEY)');
    const writes = Array.from({ length: 5 }, () => s.transaction((tx) => tx.run('INSERT INTO "t" DEFAULT VALUES')));
    await s.close();
    await Promise.all(writes);
    const db = new Database(file2, { readonly: true });
    expect(db.query('SELECT count(*) AS n FROM "t"').get()).toEqual({ n: 5 });
    db.close();
  });
});
