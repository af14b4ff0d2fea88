/**
 * Counts (and other answers that follow from what tables hold: the index terms a search prefix covers,
 * docs/search.md) kept in memory per count statement (its SQL and parameters: the collection, the read
 * filter, the caller's `where`, the locale), so that a list's exact `totalDocs` costs no scan while nothing it counts
 * changed. A kept count is used only while the change counters of the tables it depends on (the
 * collection's own and every table its filter may reach: the response cache's dependencies) are the ones
 * read before it was counted, exactly as kept answers of the response cache are (src/cache/). The triggers
 * behind those counters see every write, by this process, another process on the same SQLite file, another
 * instance on PostgreSQL (there the counters are read with an exact query), or hand-written SQL, so a kept
 * total is never older than the data a fresh count would see. Never inside a transaction, whose own
 * uncommitted writes the counters do not show. docs/documents.md, "How totals are counted".
 */
import { quote, type Params, type Queryable, type SQLPart, type Store } from './store.ts';

/**
 * `newest`: for a list's count brought up to date from added rows, the highest ids the table and the version
 * table held.
 */
type Kept = { value: unknown; counters: number[]; newest?: [number, number] };

/** Per store; the oldest goes first beyond this many. */
const MAX_KEPT = 500;
/** A statement longer than this (a large `where`) is counted every time rather than kept under a long key. */
const MAX_KEY = 4096;
const byStore = new WeakMap<Queryable, Map<string, Kept>>();

const isStore = (db: Queryable): db is Store => 'inTransaction' in db && !(db as Store).inTransaction;

function keyOf(sql: string, params: Params): string | null {
  try {
    const key = `${sql}\0${JSON.stringify(params)}`;
    return key.length <= MAX_KEY ? key : null;
  } catch {
    return null;
  }
}

/** `count()` run now, or what it answered before while `tables` have not changed since. */
export const keptCount = (
  db: Queryable,
  tables: readonly string[],
  sql: string,
  params: Params,
  count: () => Promise<number>,
): Promise<number> => kept(db, tables, sql, params, count);

/**
 * `compute()` run now, or what it answered before while `tables` have not changed since: any answer that
 * follows from what those tables hold (a count; the index terms a search prefix stands for). `sql` and
 * `params` name it: the statement that computes it.
 */
export async function kept<T>(
  db: Queryable,
  tables: readonly string[],
  sql: string,
  params: Params,
  compute: () => Promise<T>,
): Promise<T> {
  const key = isStore(db) ? keyOf(sql, params) : null;
  if (key === null) return compute();
  const { entry, counters, keep } = await lookUp(db as Store, key, tables);
  if (entry && sameFrom(entry.counters, counters)) return keep(entry).value as T;
  return keep({ value: await compute(), counters }).value as T;
}

const sameFrom = (a: readonly number[], b: readonly number[], from = 0) => a.every((n, i) => i < from || n === b[i]);

/**
 * What is kept under `key` (taken out: `keep` puts it, or what replaces it, back as the newest), and the
 * counters of `tables` now.
 */
async function lookUp(store: Store, key: string, tables: readonly string[]) {
  const reading = await store.changeCounters({ exact: true, latest: true });
  const counters = tables.map((table) => reading.get(table) ?? 0);
  let known = byStore.get(store);
  if (!known) byStore.set(store, (known = new Map()));
  const entry = known.get(key);
  known.delete(key);
  const keep = (kept: Kept) => {
    if (known.size >= MAX_KEPT) known.delete(known.keys().next().value!);
    known.set(key, kept);
    return kept;
  };
  return { entry, counters, keep };
}

/** Per store: whether a table's triggers count rows (those of a database made before may count statements). */
const rowCounted = new WeakMap<Store, Promise<Set<string>>>();

function countsRows(store: Store, table: string): Promise<boolean> {
  let tables = rowCounted.get(store);
  if (!tables) {
    tables = store
      .all<{ table: string }>(store.dialect.tablesWithChangeTriggers)
      .then((rows) => new Set(rows.map((r) => r.table)));
    rowCounted.set(store, tables);
  }
  return tables.then((found) => found.has(table));
}

/** The version rows a table's counter also counts (migrations 0004/0005 of the system tables). */
const VERSIONS_OF = `CASE "kind" WHEN 'global' THEN '_global_' || "slug" ELSE "slug" END = ?`;

/**
 * The number of rows of `tables[0]` that `filter` lets through, kept as keptCount keeps it and also across
 * writes that only added rows: most writes to a large collection are creates, and counting half a million
 * published posts again after each takes tens of milliseconds. With the count are kept, all read in its one
 * statement (one snapshot), the highest id the table and the version table held and the change counters of
 * `tables`, which the triggers move by one per row written (the table's counter also by one per version row
 * of its documents). When only the collection's counter moved since, one walk of the rows above those ids
 * (new ids are always higher: neither engine hands one out twice) tells how many rows were added, and how
 * many of them the filter lets through: if the counter moved by exactly as many rows as were added, nothing
 * else was written (an update or a removal moves it without adding a row, a row added by hand with a lower
 * id moves it without being walked), and the count grows by the added rows that pass. Otherwise, or when
 * another table of `tables` changed, it is counted again.
 */
export async function keptListCount(db: Queryable, tables: readonly string[], filter: SQLPart | null): Promise<number> {
  const name = tables[0]!;
  const table = quote(name);
  const where = filter ? ` WHERE ${filter.sql}` : '';
  const params = filter?.params ?? [];
  const sql = `SELECT CAST(count(*) AS INTEGER) AS "n" FROM ${table}${where}`;
  const key = isStore(db) ? keyOf(sql, params) : null;
  const count = async () => Number((await db.get<{ n: number }>(sql, params))!.n);
  if (key === null || !(await countsRows(db as Store, name))) return keptCount(db, tables, sql, params, count);
  const store = db as Store;
  const { entry, counters, keep } = await lookUp(store, key, tables);
  if (entry && sameFrom(entry.counters, counters)) return keep(entry).value as number;
  // The counters as the statement's snapshot holds them.
  const versions = tables
    .map((_, i) => `(SELECT "version" FROM "_cms_changes" WHERE "name" = ?) AS "v${i}"`)
    .join(', ');
  type Row = Record<string, number | string | null>;
  const versionsOf = (row: Row) => tables.map((_, i) => Number(row[`v${i}`] ?? 0));
  const int = (value: number | string | null) => (value === null ? null : Number(value));
  let next: Kept | null = null;
  if (entry?.newest && sameFrom(entry.counters, counters, 1)) {
    const [newest, newestVersion] = entry.newest;
    const passes = filter ? `sum(CASE WHEN ${filter.sql} THEN 1 ELSE 0 END)` : 'count(*)';
    const row = (await db.get<Row>(
      `SELECT count(*) AS "added", ${passes} AS "n", max("id") AS "newest", ${versions},
        (SELECT count(*) FROM ${store.dialect.rowsById('_cms_versions')} WHERE "id" > ? AND ${VERSIONS_OF}) AS "versionsAdded",
        (SELECT max("id") FROM "_cms_versions") AS "newestVersion"
      FROM ${store.dialect.rowsById(name)} WHERE "id" > ?`,
      [...params, ...tables, newestVersion, name, newest],
    ))!;
    const now = versionsOf(row);
    if (sameFrom(entry.counters, now, 1) && now[0]! - entry.counters[0]! === int(row.added)! + int(row.versionsAdded)!)
      next = {
        value: (entry.value as number) + (int(row.n) ?? 0),
        counters: now,
        newest: [int(row.newest) ?? newest, int(row.newestVersion) ?? newestVersion],
      };
  }
  if (!next) {
    const row = (await db.get<Row>(
      `SELECT CAST(count(*) AS INTEGER) AS "n", (SELECT max("id") FROM ${table}) AS "newest",
        (SELECT max("id") FROM "_cms_versions") AS "newestVersion", ${versions} FROM ${table}${where}`,
      [...tables, ...params],
    ))!;
    next = {
      value: int(row.n),
      counters: versionsOf(row),
      newest: [int(row.newest) ?? 0, int(row.newestVersion) ?? 0],
    };
  }
  return keep(next).value as number;
}
