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
import { countsRows, stateColumns, stateOf, stateParams, upToDate } from './rows-added.ts';
import { follow } from './rows-rewritten.ts';

/** `newest` and `rows`: for an answer about a list brought up to date from written rows (./rows-added.ts). */
export type Kept = { value: unknown; counters: number[]; newest?: [number, number]; rows?: number };

/** Per store; the oldest goes first beyond this many. */
const MAX_KEPT = 500;
/** A statement longer than this (a large `where`) is counted every time rather than kept under a long key. */
const MAX_KEY = 4096;
const byStore = new WeakMap<Queryable, Map<string, Kept>>();

export const isStore = (db: Queryable): db is Store => 'inTransaction' in db && !(db as Store).inTransaction;

export function keyOf(sql: string, params: Params): string | null {
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
  if (entry && entry.counters.every((n, i) => n === counters[i])) return keep(entry).value as T;
  return keep({ value: await compute(), counters }).value as T;
}

/**
 * What is kept under `key` (taken out: `keep` puts it, or what replaces it, back as the newest), and the
 * counters of `tables` now.
 */
export async function lookUp(store: Store, key: string, tables: readonly string[]) {
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

/**
 * The number of rows of table `name` (`tables[0]`) that `filter` lets through, kept as keptCount keeps it and also across
 * writes that only added rows (./rows-added.ts): most writes to a large collection are creates, and counting
 * half a million published posts again after each takes tens of milliseconds. The count grows by the added
 * rows that pass, and moves by what the updates and removals this process noted did to it
 * (./rows-rewritten.ts); after any other write, or a change of another table of `tables`, it is counted
 * again.
 */
export async function keptListCount(
  db: Queryable,
  name: string,
  tables: readonly string[],
  filter: SQLPart | null,
): Promise<number> {
  const table = quote(name);
  const where = filter ? ` WHERE ${filter.sql}` : '';
  const params = filter?.params ?? [];
  const sql = `SELECT CAST(count(*) AS INTEGER) AS "n" FROM ${table}${where}`;
  const key = isStore(db) ? keyOf(sql, params) : null;
  const count = async () => Number((await db.get<{ n: number }>(sql, params))!.n);
  if (key === null || tables[0] !== name || !(await countsRows(db as Store, name)))
    return keptCount(db, tables, sql, params, count);
  const store = db as Store;
  const { entry, counters, keep } = await lookUp(store, key, tables);
  follow(store, name, key, filter);
  const since = entry ? await upToDate(store, entry, counters, tables, filter, key) : null;
  if (since) return keep({ value: (entry!.value as number) + since.passing, ...since.state }).value as number;
  const row = (await db.get<Record<string, unknown>>(
    `SELECT CAST(count(*) AS INTEGER) AS "n", ${stateColumns(tables)} FROM ${table}${where}`,
    [...stateParams(tables), ...params],
  ))!;
  return keep({ value: Number(row.n), ...stateOf(row, tables) }).value as number;
}
