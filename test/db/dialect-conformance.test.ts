// Runs once (on the SQLite pass): tests both engines itself, in one run.
/**
 * The two dialects (src/db/sqlite/dialect.ts, src/db/postgres/dialect.ts) answer the same questions the same
 * way: each case runs against a real SQLite store and a real PostgreSQL store (a fresh database of the test
 * cluster) and expects one answer for both. Covers JSON paths, typed values, lists, case-insensitive `like`,
 * unique violations and claims of due rows under concurrency. Runs both engines itself, so `bun run test`
 * runs it once.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import type { Engine, Store } from '../../src/db/store.ts';
import { openSqliteStore } from '../../src/db/sqlite/store.ts';
import { createPostgresStore } from '../../src/db/postgres/store.ts';
import { tempDir } from '../harness.ts';
import { createTestDatabase } from '../support/postgres.ts';

// Each engine's column types for the same table: the only engine-specific text here (the stores are what is under test).
const DDL: Record<Engine, string[]> = {
  sqlite: [
    'CREATE TABLE "things" ("id" integer PRIMARY KEY, "title" text, "email" text UNIQUE, "doc" text)',
    `CREATE TABLE "due" ("id" integer PRIMARY KEY, "state" text NOT NULL, "owner" text)`,
  ],
  postgres: [
    'CREATE TABLE "things" ("id" bigint PRIMARY KEY, "title" text, "email" text UNIQUE, "doc" jsonb)',
    `CREATE TABLE "due" ("id" bigint PRIMARY KEY, "state" text NOT NULL, "owner" text)`,
  ],
};

const THINGS = [
  {
    id: 1,
    title: 'Hello World',
    email: 'a@example.com',
    doc: { seo: { title: 'First' }, n: 5, flag: true, tags: ['news', 'tech'], rows: [{ label: 'x', v: 1 }] },
  },
  {
    id: 2,
    title: '100% pure_fun',
    email: 'b@example.com',
    doc: {
      seo: { title: null },
      n: 2.5,
      flag: false,
      tags: [],
      rows: [
        { label: 'y', v: 2 },
        { label: 'z', v: 3 },
      ],
    },
  },
  { id: 3, title: 'hello again', email: 'c@example.com', doc: { tags: ['news'] } },
];

type Opened = { store: Store; close(): Promise<void> };

async function open(engine: Engine): Promise<Opened> {
  if (engine === 'sqlite') {
    const dir = tempDir('cms-dialect-');
    const store = openSqliteStore(path.join(dir, 'cms.db'));
    return {
      store,
      close: async () => {
        await store.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const db = await createTestDatabase();
  const store = await createPostgresStore(db.url, { poolSize: 4 });
  return {
    store,
    close: async () => {
      await store.close();
      await db.drop();
    },
  };
}

for (const engine of ['sqlite', 'postgres'] as const) {
  describe(`dialect conformance: ${engine}`, () => {
    let opened: Opened;
    let store: Store;
    const ids = async (where: string, params: unknown[] = []) =>
      (await store.all<{ id: number }>(`SELECT "id" FROM "things" WHERE ${where} ORDER BY "id"`, params)).map((r) =>
        Number(r.id),
      );

    beforeAll(async () => {
      opened = await open(engine);
      store = opened.store;
      for (const statement of DDL[engine]) await store.exec(statement);
      for (const t of THINGS) {
        await store.run('INSERT INTO "things" ("id", "title", "email", "doc") VALUES (?, ?, ?, ?)', [
          t.id,
          t.title,
          t.email,
          store.dialect.encodeJSON(t.doc),
        ]);
      }
      for (let id = 1; id <= 20; id++) await store.run(`INSERT INTO "due" ("id", "state") VALUES (?, 'pending')`, [id]);
    });
    afterAll(async () => {
      await opened?.close();
    });

    test('JSON paths: a nested value, a JSON null and a missing path all read as SQL values or NULL', async () => {
      const { dialect } = store;
      const rows = await store.all<{ id: number; title: string | null }>(
        `SELECT "id", ${dialect.jsonValue('"doc"', ['seo', 'title'], 'text')} AS "title" FROM "things" ORDER BY "id"`,
      );
      expect(rows.map((r) => r.title)).toEqual(['First', null, null]);
      expect(await ids(`${dialect.jsonGet('"doc"', ['seo', 'title'])} IS NULL`)).toEqual([2, 3]);
      expect(
        await ids(
          `COALESCE(${dialect.jsonGet('"doc"', ['seo', 'title'])}, ${dialect.jsonGet('"doc"', ['n'])}) IS NOT NULL`,
        ),
      ).toEqual([1, 2]);
    });

    test('typed values: numbers compare as numbers, a missing number is NULL, booleans are 1/0', async () => {
      const { dialect } = store;
      expect(await ids(`${dialect.jsonValue('"doc"', ['n'], 'number')} > ?`, [2])).toEqual([1, 2]);
      expect(await ids(`${dialect.jsonValue('"doc"', ['n'], 'number')} IS NULL`)).toEqual([3]);
      expect(await ids(`${dialect.jsonValue('"doc"', ['flag'], 'boolean')} = ?`, [dialect.boolean(true)])).toEqual([1]);
      expect(await ids(`${dialect.jsonValue('"doc"', ['flag'], 'boolean')} = ?`, [dialect.boolean(false)])).toEqual([
        2,
      ]);
      const [row] = await store.all<{ n: unknown }>(
        `SELECT ${dialect.jsonValue('"doc"', ['n'], 'number')} AS "n" FROM "things" WHERE "id" = 2`,
      );
      expect(row.n).toBe(2.5);
    });

    // Known differences, kept out of the cases above until the SQLite dialect reads JSON by its type as the
    // PostgreSQL one does: there a JSON string read as a number is NULL, and a value that is not an array
    // has no items; SQLite's json_extract compares the string as text (greater than any number), json_each
    // of a number yields the number as one item, and of a string that is not JSON fails the query. Field
    // validation keeps such values out of stored documents.
    test.todo('typed values: a JSON string read as a number is NULL on both engines');
    test.todo('lists: a value that is not an array has no items on both engines');

    test('lists: array length, any item, any row of an array, and an id list bound as one parameter', async () => {
      const { dialect } = store;
      const lengths = await store.all<{ n: number | null }>(
        `SELECT ${dialect.jsonArrayLength(dialect.jsonGet('"doc"', ['tags']))} AS "n" FROM "things" ORDER BY "id"`,
      );
      expect(lengths.map((r) => Number(r.n))).toEqual([2, 0, 1]);
      const anyTag = (tag: string) =>
        ids(
          `EXISTS (SELECT 1 FROM ${dialect.jsonItems(dialect.jsonGet('"doc"', ['tags']))} WHERE ${dialect.jsonValue('value', [], 'text')} = ?)`,
          [tag],
        );
      expect(await anyTag('news')).toEqual([1, 3]);
      expect(await anyTag('tech')).toEqual([1]);
      expect(
        await ids(
          `EXISTS (SELECT 1 FROM ${dialect.jsonItems(dialect.jsonGet('"doc"', ['rows']))} WHERE ${dialect.jsonValue('value', ['v'], 'number')} >= ?)`,
          [2],
        ),
      ).toEqual([2]);
      const list = dialect.inList('"id"', [3, 1, 99]);
      expect(await ids(list.sql, list.params)).toEqual([1, 3]);
      const none = dialect.inList('"id"', []);
      expect(await ids(none.sql, none.params)).toEqual([]);
    });

    test('case-insensitive like, with % and _ escaped by a backslash', async () => {
      const like = (pattern: string) => ids(store.dialect.likeInsensitive('"title"'), [pattern]);
      expect(await like('%HELLO%')).toEqual([1, 3]);
      expect(await like('hello w%')).toEqual([1]);
      expect(await like('%100\\%%')).toEqual([2]);
      expect(await like('%pure\\_fun')).toEqual([2]);
      expect(await like('%pure\\_xun')).toEqual([]);
    });

    test('a unique violation names its column; other errors name none', async () => {
      const failure = await store
        .run('INSERT INTO "things" ("id", "title", "email") VALUES (?, ?, ?)', [9, 'dup', 'a@example.com'])
        .then(
          () => null,
          (e) => e,
        );
      expect(failure).not.toBeNull();
      expect(store.dialect.uniqueViolation(failure)).toBe('email');
      const other = await store.run('INSERT INTO "things" ("nope") VALUES (?)', [1]).then(
        () => null,
        (e) => e,
      );
      expect(other).not.toBeNull();
      expect(store.dialect.uniqueViolation(other)).toBeNull();
      expect(await ids('1 = 1')).toEqual([1, 2, 3]);
    });

    test('claims of due rows: concurrent claimers each take a different row, and every row once', async () => {
      const claim = (owner: string) =>
        store.transaction(async (tx) => {
          const row = await tx.get<{ id: number }>(
            `UPDATE "due" SET "state" = 'claimed', "owner" = ? WHERE "id" = (
          SELECT "id" FROM "due" WHERE "state" = 'pending' ORDER BY "id" LIMIT 1${tx.dialect.skipLocked}) RETURNING "id"`,
            [owner],
          );
          return row ? Number(row.id) : null;
        });
      const claimed = await Promise.all(Array.from({ length: 25 }, (_, i) => claim(`worker-${i}`)));
      const taken = claimed.filter((id): id is number => id !== null).sort((a, b) => a - b);
      expect(taken).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const owners = await store.all<{ owner: string }>(`SELECT "owner" FROM "due" WHERE "state" = 'claimed'`);
      expect(new Set(owners.map((o) => o.owner)).size).toBe(20);
    });
  });
}
