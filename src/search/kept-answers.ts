/**
 * Answers that follow from a search index alone (a search's exact total without a read filter; the index
 * terms a prefix covers), kept across writes that only add documents. Counting the matches of a word found
 * in most of a large collection walks its whole entry list (tens of ms at a million documents), and an
 * answer kept the way a list's total is (src/db/kept-counts.ts) is computed again after any write. But most
 * writes only add a new document's rows: so with the answer are kept the newest document id the index held
 * when it was computed and the index's own change counter, which counts every removal or rewrite of rows
 * and every row added below the newest document (src/search/search-index.ts). While that counter is
 * unchanged, the answer is brought up to date from the documents added since, which the index seeks to by
 * id. docs/search.md, "How a search is answered".
 */
import type { Params, Store } from '../db/store.ts';

/** An answer, and the newest document id the index held when it was computed (null: none). */
export type Since<T> = { value: T; newest: number | null };
type Kept = Since<unknown> & { table: number; index: number };

/** Per store; the oldest goes first beyond this many. */
const MAX_KEPT = 500;
/** A name longer than this (many terms) is computed every time rather than kept under a long key. */
const MAX_KEY = 4096;
const byStore = new WeakMap<Store, Map<string, Kept>>();

/**
 * `full()` computes the answer; `since(value, after)` brings a kept one up to date from the documents with
 * an id above `after`, or answers null when it cannot (then `full()` runs). `table`: the collection's
 * table; `index`: its search table; `sql` and `params` name the answer.
 */
export async function keptSinceAppends<T>(
  store: Store,
  table: string,
  index: string,
  sql: string,
  params: Params,
  full: () => Promise<Since<T>>,
  since: (value: T, after: number | null) => Promise<Since<T> | null>,
): Promise<T> {
  if (store.inTransaction) return (await full()).value;
  let key = '';
  try {
    key = `${sql}\0${JSON.stringify(params)}`;
  } catch {}
  if (!key || key.length > MAX_KEY) return (await full()).value;
  // Read before computing: a write landing in between moves a counter past what is kept, so the next call
  // looks again.
  const counters = await store.changeCounters({ exact: true, latest: true });
  const now = { table: counters.get(table) ?? 0, index: counters.get(index) ?? 0 };
  let known = byStore.get(store);
  if (!known) byStore.set(store, (known = new Map()));
  const entry = known.get(key);
  known.delete(key);
  let kept: Kept;
  if (entry && entry.table === now.table && entry.index === now.index) kept = entry;
  else {
    const added = entry && entry.index === now.index ? await since(entry.value as T, entry.newest) : null;
    kept = { ...(added ?? (await full())), ...now };
  }
  if (known.size >= MAX_KEPT) known.delete(known.keys().next().value!);
  known.set(key, kept);
  return kept.value as T;
}
