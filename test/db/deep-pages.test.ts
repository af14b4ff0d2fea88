/**
 * Deep pages (docs/documents.md, "How totals are counted"): from an offset of 1,000 a page's ids are found
 * in runs that are kept while nothing the list reads changed, so the same page, or the next, skips nothing.
 * Every page holds what a plain walk of the sorted list holds, and every write is seen at once. Creates that
 * sort first move the kept runs down instead of walking again. Runs on the engine of the suite's pass.
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

/**
 * The row at place `at` of the list given `n` by hand, both change counters of the table put back: a kept
 * page does not see it until it is walked again. Answers its id.
 */
async function moveBehindCounters(at: number, n: number): Promise<number> {
  const counters = await t.cms.store.all<{ name: string; version: number }>(
    `SELECT "name", "version" FROM "_cms_changes" WHERE "name" IN ('items', 'items:rows')`,
  );
  const id = expected(await stored())[at]!;
  await t.cms.store.run(`UPDATE "items" SET "n" = ? WHERE "id" = ?`, [n, id]);
  for (const { name, version } of counters)
    await t.cms.store.run(`UPDATE "_cms_changes" SET "version" = ? WHERE "name" = ?`, [version, name]);
  return id;
}

beforeAll(async () => {
  t = await startTestServer({
    collections: [
      {
        slug: 'items',
        access: { read: () => true, create: () => true, delete: () => true },
        fields: [
          { name: 'n', type: 'number' },
          { name: 'label', type: 'text' },
        ],
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
  // New rows continue after the ids given here (PostgreSQL keeps its own counter).
  await t.cms.store.continueIdsAfterCopy(['items']);
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
    // The last row of the list sorted first of all: every row before it moves one place on.
    const last = expected(await stored()).at(-1)!;
    await t.cms.store.run(`UPDATE "items" SET "n" = 1000 WHERE "id" = ?`, [last]);
    await t.cms.store.run(`UPDATE "_cms_changes" SET "version" = ? WHERE "name" = 'items'`, [version]);
    expect(await page(number)).toEqual(before);
    // A counted write: the page is walked again and holds what the list holds now.
    await cms.delete({ collection: 'items', id: before[0] });
    const all = expected(await stored());
    expect(all[0]).toBe(last);
    expect(await page(number)).toEqual(all.slice((number - 1) * 20, number * 20));
    expect(await page(number)).not.toEqual(before);
  });
});

describe('a deep page after creates', () => {
  const number = DEEP_OFFSET / 20 + 5;
  const exact = async () => {
    const all = expected(await stored());
    expect(await page(number)).toEqual(all.slice((number - 1) * 20, number * 20));
  };
  let top = 5000;
  const create = (n: number) => cms.create({ collection: 'items', data: { n } });

  test('holds what the list holds after creates sorted first, in the middle, or many at once', async () => {
    await exact();
    await create(++top);
    await exact();
    await create(++top);
    await create(++top);
    await exact();
    // Sorted among the others.
    await create(50);
    await exact();
    await create(++top);
    await create(3);
    await exact();
    // More than a run's length at once.
    for (let i = 0; i < KEPT_IDS + 5; i++) await create(++top);
    await exact();
    // A create and an update.
    const made = await create(++top);
    await cms.update({ collection: 'items', id: made.id as number, data: { n: 1 } });
    await exact();
  });

  test('creates sorted first move the kept runs down, without a walk', async () => {
    await exact();
    const before = await page(number);
    // A row before the page moved to the end behind the change counters: a walk would see the page move up
    // one place; moved runs do not see it.
    const moved = await moveBehindCounters(10, -1);
    await create(++top);
    await create(++top);
    // Two places down: the page starts two rows earlier in the kept order.
    expect((await page(number)).slice(2)).toEqual(before.slice(0, 18));
    // An update that moves a row in the list: walked again, exact.
    await cms.update({ collection: 'items', id: moved, data: { n: -2 } });
    await exact();
  });
});

describe('a deep page after updates and removals', () => {
  const number = DEEP_OFFSET / 20 + 7;
  const exact = async () => {
    const all = expected(await stored());
    expect(await page(number)).toEqual(all.slice((number - 1) * 20, number * 20));
  };

  test('an update that leaves every row in its place keeps the runs; one that moves a row walks again', async () => {
    await exact();
    const before = await page(number);
    // The first row of the list moved to its end behind the counters: only a walk sees the page move up.
    const first = await moveBehindCounters(0, -5);
    // The slipped row's own place changed, the page's did not: kept runs still show the page as it was.
    const unmoved = before[0]!;
    await cms.update({ collection: 'items', id: unmoved, data: { label: 'edited' } });
    expect(await page(number)).toEqual(before);
    // The same value of the sorted field written again: still in its place.
    const { n } = await cms.findByID({ collection: 'items', id: unmoved, depth: 0 });
    await cms.update({ collection: 'items', id: unmoved, data: { n } });
    expect(await page(number)).toEqual(before);
    // An update of a row's place in the list: walked again, exact, the slipped row seen.
    await cms.update({ collection: 'items', id: unmoved, data: { n: 9999 } });
    await exact();
    expect(await page(number)).not.toEqual(before);
    await cms.update({ collection: 'items', id: first, data: { n: 50 } });
    await exact();
  });

  test('a removal of a row of the list walks again', async () => {
    await exact();
    const before = await page(number);
    await cms.delete({ collection: 'items', id: before[0] });
    await exact();
  });
});
