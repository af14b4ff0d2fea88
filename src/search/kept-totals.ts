/**
 * The exact total of a search without a read filter, kept across writes that only add documents. Counting
 * the matches of a word found in most of a large collection walks its whole entry list (tens of ms at a
 * million documents), and a total kept the way a list's is (src/db/kept-counts.ts) is counted again after
 * any write. But the matches of such a search depend on the index table alone, and most writes only add a
 * new document's rows: so with the total are kept the newest document id the index held when it was counted
 * and the index's own change counter, which counts every removal or rewrite of rows and every row added
 * below the newest document (src/search/search-index.ts). While that counter is unchanged, the total is
 * the kept one plus the matches among the documents added since, which the index seeks to by id.
 * docs/search.md, "How a search is answered".
 */
import type { Params, Store } from '../db/store.ts';

type Kept = { total: number; newest: number | null; table: number; index: number };

/** Per store; the oldest goes first beyond this many. */
const MAX_KEPT = 500;
const byStore = new WeakMap<Store, Map<string, Kept>>();

/**
 * `count(after)`: the matches of documents with an id above `after` (all of them when null), and the newest
 * document id the index holds, read in one statement. `table`: the collection's table; `index`: its search
 * table; `sql` and `params` name the search.
 */
export async function keptSearchTotal(
  store: Store,
  table: string,
  index: string,
  sql: string,
  params: Params,
  count: (after: number | null) => Promise<{ n: number; newest: number | null }>,
): Promise<number> {
  if (store.inTransaction) return (await count(null)).n;
  let key: string;
  try {
    key = `${sql}\0${JSON.stringify(params)}`;
  } catch {
    return (await count(null)).n;
  }
  // Read before counting: a write landing in between moves a counter past what is kept, so the next
  // search counts again.
  const counters = await store.changeCounters({ exact: true, latest: true });
  const now = { table: counters.get(table) ?? 0, index: counters.get(index) ?? 0 };
  let known = byStore.get(store);
  if (!known) byStore.set(store, (known = new Map()));
  const entry = known.get(key);
  known.delete(key);
  let kept: Kept;
  if (entry && entry.table === now.table && entry.index === now.index) kept = entry;
  else if (entry && entry.index === now.index) {
    const added = await count(entry.newest);
    kept = { total: entry.total + added.n, newest: added.newest ?? entry.newest, ...now };
  } else {
    const all = await count(null);
    kept = { total: all.n, newest: all.newest, ...now };
  }
  if (known.size >= MAX_KEPT) known.delete(known.keys().next().value!);
  known.set(key, kept);
  return kept.total;
}
