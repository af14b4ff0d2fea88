/**
 * A deep page's ids (docs/documents.md, "How totals are counted"): found KEPT_IDS at a time, from a multiple
 * of it, by an index walk past the skipped rows, and kept per list while nothing it reads changed, so the
 * next pages of a deep walk, and the same page asked again, skip nothing. Where the triggers count rows
 * (./rows-added.ts), the runs also survive writes that only added rows, when every added row the list lets
 * through sorts before all the others (a list newest first, the usual deep walk): each kept run then lies as
 * many places further down as rows were added.
 */
import { keyOf, isStore, lookUp, type Kept } from './kept-counts.ts';
import { countsRows, sameState, stateColumns, stateOf, stateParams, upToDate, type ListState } from './rows-added.ts';
import { quote, type Queryable, type SQLPart, type Store } from './store.ts';
import { follow } from './rows-rewritten.ts';

/**
 * From this offset on, a page's ids are found first (an index-only walk past the skipped rows when the sort
 * is indexed) and only the page's rows are read: skipping by OFFSET through whole rows costs a row lookup
 * per skipped row on PostgreSQL and a quarter more on SQLite (docs/benchmarks.md, "A million documents").
 */
export const DEEP_OFFSET = 1000;
/** Deep pages' ids are found this many at a time, from a multiple of it. */
export const KEPT_IDS = 200;
/** Runs kept per list (the newest found stay). */
const RUNS_PER_LIST = 4;

/** A list's kept runs of ids, by the position of their first id in the list now. */
type Runs = Map<number, number[]>;

/** The run holding position `at`, or one that ends the list before it. */
function runAt(runs: Runs, at: number): { from: number; ids: number[] } | null {
  for (const [from, ids] of runs)
    if (from <= at && (at < from + ids.length || ids.length < KEPT_IDS)) return { from, ids };
  return null;
}

/**
 * The ids at `offset`, `limit` of them, of the rows of `table` that `where` lets through in `orderBy`'s
 * order. `dependsOn`: every table the filter may read (the collection's own first).
 */
export async function deepIds(
  db: Queryable,
  table: string,
  where: SQLPart | null,
  orderBy: string,
  limit: number,
  offset: number,
  dependsOn: readonly string[],
): Promise<number[]> {
  const filter = where ? ` WHERE ${where.sql}` : '';
  const params = where?.params ?? [];
  const sql = `SELECT "id" FROM ${quote(table)}${filter} ORDER BY ${orderBy} LIMIT ? OFFSET ?`;
  const key = isStore(db) ? keyOf(sql, params) : null;
  if (key === null || dependsOn[0] !== table || !(await countsRows(db as Store, table))) {
    const all = await db.all<{ id: number }>(sql, [...params, limit, offset]);
    return all.map((r) => Number(r.id));
  }
  const store = db as Store;
  /** `count` ids from `from` on, each row with the state of the list's tables in the same statement. */
  const idsWithState = (count: number, from: number) =>
    store.all<Record<string, unknown>>(
      `SELECT "id", ${stateColumns(dependsOn)} FROM ${quote(table)}${filter} ORDER BY ${orderBy} LIMIT ? OFFSET ?`,
      [...stateParams(dependsOn), ...params, count, from],
    );
  const { entry, counters, keep } = await lookUp(store, key, dependsOn);
  follow(store, table, key, where, orderBy);
  let kept = entry ? await bringUpToDate(store, key, entry, counters, where, dependsOn, idsWithState) : null;
  // A run found in another state than the kept ones (a write landed meanwhile) starts the list again.
  for (let attempt = 0; ; attempt++) {
    const runs: Runs = kept ? (kept.value as Runs) : new Map();
    let state: ListState | null = kept?.newest ? (kept as ListState) : null;
    const ids: number[] = [];
    let stale = false;
    for (let at = offset; at < offset + limit; ) {
      let run = runAt(runs, at);
      if (!run) {
        const from = at - (at % KEPT_IDS);
        const rows = await idsWithState(KEPT_IDS, from);
        const found = rows.length ? stateOf(rows[0]!, dependsOn) : null;
        if (found && state && !sameState(found, state)) stale = true;
        state ??= found;
        run = { from, ids: rows.map((r) => Number(r.id)) };
        if (!stale && found) {
          runs.set(from, run.ids);
          while (runs.size > RUNS_PER_LIST) runs.delete(runs.keys().next().value!);
        }
      }
      const end = run.from + run.ids.length;
      // Past a short run: the list ends before `at`.
      if (at >= end) break;
      ids.push(...run.ids.slice(at - run.from, Math.min(end, offset + limit) - run.from));
      at = end;
    }
    if (!stale || attempt === 1) {
      if (!stale && state) keep({ value: runs, ...state });
      return ids;
    }
    kept = null;
  }
}

/**
 * The kept runs, as they lie in the list now: unchanged while nothing the list reads changed, or while the
 * updates and removals since left every row of the list in its place (./rows-rewritten.ts); moved down by
 * the rows added since when those sort first; null otherwise.
 */
async function bringUpToDate(
  store: Store,
  key: string,
  entry: Kept,
  counters: number[],
  where: SQLPart | null,
  dependsOn: readonly string[],
  idsWithState: (count: number, from: number) => Promise<Record<string, unknown>[]>,
): Promise<Kept | null> {
  const since = await upToDate(store, entry, counters, dependsOn, where, key, true);
  if (!since) return null;
  const moved = since.passing;
  if (moved === 0) return { ...entry, ...since.state };
  if (moved > KEPT_IDS) return null;
  // The first `moved` of the list now are the added rows exactly when all of them are above the kept id.
  const first = await idsWithState(moved, 0);
  const newest = entry.newest![0];
  if (first.length !== moved || !sameState(stateOf(first[0]!, dependsOn), since.state)) return null;
  if (!first.every((r) => Number(r.id) > newest)) return null;
  const runs = new Map([...(entry.value as Runs)].map(([from, ids]) => [from + moved, ids]));
  return { value: runs, ...since.state };
}
