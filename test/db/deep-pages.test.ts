/**
 * Deep pages (docs/documents.md, "How totals are counted"): from an offset of 1,000 a page's ids are found
 * in runs that are kept while nothing the list reads changed, so the same page, or the next, skips nothing.
 * Every page holds what a plain walk of the sorted list holds, and every write is seen at once. Runs on the
 * engine of the suite's pass.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import { localAPI } from '../../src/local.ts';
import { DEEP_OFFSET, KEPT_IDS } from '../../src/db/documents.ts';

const COUNT = DEEP_OFFSET + KEPT_IDS + 150;
let t: TestServer;
/** Untyped: the collection comes from the config below. */
let cms: any;

/** Ids of `n`, newest first with ties by id, as the list sorts `-n`. */
const expected = (rows: { id: number; n: number }[]) =>
  [...rows].sort((a, b) => b.n - a.n || b.id - a.id).map((r) => r.id);
const page = async (page: number, limit = 20) =>
  (await cms.find({ collection: 'items', sort: '-n', limit, page, depth: 0 })).docs.map((d: { id: number }) => d.id);
const stored = async () =>
  (await t.cms.store.all<{ id: number; n: number }>(`SELECT "id", "n" FROM "items"`)).map((r) => ({
    id: Number(r.id),
    n: Number(r.n),
  }));

beforeAll(async () => {
  t = await startTestServer({
    collections: [
      {
        slug: 'items',
        access: { read: () => true, create: () => true, delete: () => true },
        fields: [{ name: 'n', type: 'number' }],
      },
    ],
  });
  cms = localAPI(t.cms);
  // The first through the API, the rest as raw rows, a hundred a statement (ties on `n`, broken by the id).
  await cms.create({ collection: 'items', data: { n: 5 } });
  const now = new Date().toISOString();
  for (let from = 2; from <= COUNT; from += 100) {
    const ids = Array.from({ length: Math.min(100, COUNT + 1 - from) }, (_, i) => from + i);
    await t.cms.store.run(
      `INSERT INTO "items" ("id", "n", "createdAt", "updatedAt") VALUES ${ids.map(() => '(?, ?, ?, ?)').join(', ')}`,
      ids.flatMap((id) => [id, id % 97, now, now]),
    );
  }
});
afterAll(() => t?.stop());

describe('a deep page', () => {
  test('holds what the sorted list holds, across the runs its ids are kept in', async () => {
    const all = expected(await stored());
    // Pages inside one run, across two runs, and the short last page.
    for (const [number, limit] of [
      [DEEP_OFFSET / 20 + 1, 20],
      [Math.floor((DEEP_OFFSET + KEPT_IDS - 10) / 20) + 1, 20],
      [Math.floor(DEEP_OFFSET / 30) + 1, 30],
      [Math.ceil(COUNT / 25), 25],
    ]) {
      const offset = (number - 1) * limit;
      expect(await page(number, limit)).toEqual(all.slice(offset, offset + limit));
      // Asked again: the same.
      expect(await page(number, limit)).toEqual(all.slice(offset, offset + limit));
    }
  });

  test('is kept: a row written behind the change counters is not seen until a counted write', async () => {
    const number = DEEP_OFFSET / 20 + 3;
    const before = await page(number);
    const [{ version }] = await t.cms.store.all<{ version: number }>(
      `SELECT "version" FROM "_cms_changes" WHERE "name" = 'items'`,
    );
    const now = new Date().toISOString();
    // Sorted first of all: every later row moves one place on.
    await t.cms.store.run(`INSERT INTO "items" ("id", "n", "createdAt", "updatedAt") VALUES (90000, 1000, ?, ?)`, [
      now,
      now,
    ]);
    await t.cms.store.run(`UPDATE "_cms_changes" SET "version" = ? WHERE "name" = 'items'`, [version]);
    expect(await page(number)).toEqual(before);
    // A counted write: the page is walked again and holds what the list holds now.
    await cms.delete({ collection: 'items', id: before[0] });
    const all = expected(await stored());
    expect(all[0]).toBe(90000);
    expect(await page(number)).toEqual(all.slice((number - 1) * 20, number * 20));
    expect(await page(number)).not.toEqual(before);
  });
});
