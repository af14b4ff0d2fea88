/**
 * What a kept answer about a list needs to survive writes that only add rows (docs/documents.md, "How totals
 * are counted"): the state of the list's tables, read in the answer's own statement (one snapshot), and a
 * walk of the rows added since. The change triggers move a table's counter by one per row written (and by
 * one per version row of its documents); new ids are always higher (neither engine hands one out twice). So
 * when only the collection's counter moved, and by exactly as many rows as were added above the kept ids,
 * nothing else was written: an update or a removal moves it without adding a row, a row added by hand with a
 * lower id moves it without being walked.
 */
import { quote, type SQLPart, type Store } from './store.ts';

/** The change counters of a list's tables (its collection's first) and the highest ids the collection and the version table held. */
export type ListState = { counters: number[]; newest: [number, number] };

type Row = Record<string, unknown>;

/** The version rows a table's counter also counts (the version table's triggers). */
const VERSIONS_OF = `CASE "kind" WHEN 'global' THEN '_global_' || "slug" ELSE "slug" END = ?`;

const int = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * Columns reading the state of `tables` in the statement they are part of; bind `tables` for them, in order.
 * Named as no field can be (an ORDER BY term naming a field must not find one of them instead).
 */
export function stateColumns(tables: readonly string[]): string {
  const counters = tables.map((_, i) => `(SELECT "version" FROM "_cms_changes" WHERE "name" = ?) AS "cms:v${i}"`);
  return [
    `(SELECT max("id") FROM ${quote(tables[0]!)}) AS "cms:newest"`,
    `(SELECT max("id") FROM "_cms_versions") AS "cms:newestVersion"`,
    ...counters,
  ].join(', ');
}

export const stateOf = (row: Row, tables: readonly string[]): ListState => ({
  counters: tables.map((_, i) => int(row[`cms:v${i}`]) ?? 0),
  newest: [int(row['cms:newest']) ?? 0, int(row['cms:newestVersion']) ?? 0],
});

export const sameState = (a: ListState, b: ListState) =>
  a.counters.every((n, i) => n === b.counters[i]) && a.newest[0] === b.newest[0] && a.newest[1] === b.newest[1];

/** Per store: whether a table's triggers count rows (those of a database made before may count statements). */
const rowCounted = new WeakMap<Store, Promise<Set<string>>>();

export function countsRows(store: Store, table: string): Promise<boolean> {
  let tables = rowCounted.get(store);
  if (!tables) {
    tables = store
      .all<{ table: string }>(store.dialect.tablesWithChangeTriggers)
      .then((rows) => new Set(rows.map((r) => r.table)));
    rowCounted.set(store, tables);
    // A failed look (the database out of reach for a moment) is not remembered: the next list asks again.
    tables.catch(() => rowCounted.delete(store));
  }
  return tables.then((found) => found.has(table));
}

/**
 * A kept answer about a list, as it stands with the change counters `now` (of `tables`, read before): its
 * state now and how many rows the filter lets through were added since (none, without a look, when no
 * counter moved); null when something else was written since, or it holds no state.
 */
export async function upToDate(
  store: Store,
  kept: { counters: number[]; newest?: [number, number] },
  now: readonly number[],
  tables: readonly string[],
  filter: SQLPart | null,
): Promise<{ state: ListState; passing: number } | null> {
  if (!kept.newest) return null;
  const state = { counters: kept.counters, newest: kept.newest };
  if (kept.counters.every((n, i) => n === now[i])) return { state, passing: 0 };
  if (!kept.counters.every((n, i) => i === 0 || n === now[i])) return null;
  return addedSince(store, tables, filter, state);
}

/**
 * The state now and how many of the rows added since `kept` the filter lets through, when adding rows is
 * all that was written to the collection since and its other tables did not change; null otherwise.
 */
async function addedSince(
  store: Store,
  tables: readonly string[],
  filter: SQLPart | null,
  kept: ListState,
): Promise<{ state: ListState; passing: number } | null> {
  const [newest, newestVersion] = kept.newest;
  const passes = filter ? `sum(CASE WHEN ${filter.sql} THEN 1 ELSE 0 END)` : 'count(*)';
  const row = (await store.get<Row>(
    `SELECT count(*) AS "added", ${passes} AS "passing", ${stateColumns(tables)},
      (SELECT count(*) FROM ${store.dialect.rowsById('_cms_versions')} WHERE "id" > ? AND ${VERSIONS_OF}) AS "versionsAdded"
    FROM ${store.dialect.rowsById(tables[0]!)} WHERE "id" > ?`,
    [...(filter?.params ?? []), ...tables, newestVersion, tables[0], newest],
  ))!;
  const state = stateOf(row, tables);
  const moved = state.counters[0]! - kept.counters[0]!;
  if (!state.counters.every((n, i) => i === 0 || n === kept.counters[i])) return null;
  if (moved !== int(row.added)! + int(row.versionsAdded)!) return null;
  return { state, passing: int(row.passing) ?? 0 };
}
