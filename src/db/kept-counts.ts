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
import type { Params, Queryable, Store } from './store.ts';

type Kept = { value: unknown; counters: number[] };

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
  const store = db as Store;
  const reading = await store.changeCounters({ exact: true, latest: true });
  const counters = tables.map((table) => reading.get(table) ?? 0);
  let known = byStore.get(store);
  if (!known) byStore.set(store, (known = new Map()));
  const entry = known.get(key);
  known.delete(key);
  if (entry && entry.counters.every((n, i) => n === counters[i])) {
    known.set(key, entry);
    return entry.value as T;
  }
  const value = await compute();
  if (known.size >= MAX_KEPT) known.delete(known.keys().next().value!);
  known.set(key, { value, counters });
  return value;
}
