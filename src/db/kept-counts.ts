/**
 * Counts kept in memory per count statement (its SQL and parameters: the collection, the read filter, the
 * caller's `where`, the locale), so that a list's exact `totalDocs` costs no scan while nothing it counts
 * changed. A kept count is used only while the change counters of the tables it depends on (the
 * collection's own and every table its filter may reach: the response cache's dependencies) are the ones
 * read before it was counted, exactly as kept answers of the response cache are (src/cache/). The triggers
 * behind those counters see every write, by this process, another process on the same SQLite file, another
 * instance on PostgreSQL (there the counters are read with an exact query), or hand-written SQL, so a kept
 * total is never older than the data a fresh count would see. Never inside a transaction, whose own
 * uncommitted writes the counters do not show. docs/documents.md, "How totals are counted".
 */
import type { Params, Queryable, Store } from './store.ts';

type Kept = { total: number; counters: number[] };

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
export async function keptCount(
  db: Queryable,
  tables: readonly string[],
  sql: string,
  params: Params,
  count: () => Promise<number>,
): Promise<number> {
  const key = isStore(db) ? keyOf(sql, params) : null;
  if (key === null) return count();
  const store = db as Store;
  const reading = await store.changeCounters({ exact: true, latest: true });
  const counters = tables.map((table) => reading.get(table) ?? 0);
  let kept = byStore.get(store);
  if (!kept) byStore.set(store, (kept = new Map()));
  const entry = kept.get(key);
  kept.delete(key);
  if (entry && entry.counters.every((n, i) => n === counters[i])) {
    kept.set(key, entry);
    return entry.total;
  }
  const total = await count();
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, { total, counters });
  return total;
}
