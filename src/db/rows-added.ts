/**
 * What a kept answer about a list needs to survive writes that only add rows (docs/documents.md, "How totals
 * are counted"): the state of the list's tables, read in the answer's own statement (one snapshot), and a
 * walk of the rows added since. The triggers move a table's row counter (`<table>:rows`) by one per row
 * inserted, updated or deleted; new ids are always higher (neither engine hands one out twice). So when the
 * row counter moved by exactly as many rows as were added above the kept id, nothing else was written to
 * the table: an update or a removal moves it without adding a row, a row added by hand with a lower id moves
 * it without being walked. Updates and removals this process noted (./rows-rewritten.ts) can be accounted
 * for too, for a count.
 */
import { COUNTER_NOW, quote, rowsCounter, type SQLPart, type Store } from './store.ts';
import { leftInPlace, moveOf, readsOnlyItsRow, rewritesBetween } from './rows-rewritten.ts';

/**
 * The change counters of a list's tables (its collection's first), the highest ids the collection and the
 * version table held, and the collection's row counter.
 */
export type ListState = { counters: number[]; newest: [number, number]; rows: number };

type Row = Record<string, unknown>;

/** The version rows a table's counter also counts (the version table's triggers). */
const VERSIONS_OF = `CASE "kind" WHEN 'global' THEN '_global_' || "slug" ELSE "slug" END = ?`;

const int = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * Columns reading the state of `tables` in the statement they are part of; bind `stateParams(tables)` for
 * them. Named as no field can be (an ORDER BY term naming a field must not find one of them instead).
 */
export function stateColumns(tables: readonly string[]): string {
  const counters = tables.map((_, i) => `${COUNTER_NOW} AS "cms:v${i}"`);
  return [
    `(SELECT max("id") FROM ${quote(tables[0]!)}) AS "cms:newest"`,
    `(SELECT max("id") FROM "_cms_versions") AS "cms:newestVersion"`,
    `${COUNTER_NOW} AS "cms:rows"`,
    ...counters,
  ].join(', ');
}

export const stateParams = (tables: readonly string[]) => [rowsCounter(tables[0]!), ...tables];

export const stateOf = (row: Row, tables: readonly string[]): ListState => ({
  counters: tables.map((_, i) => int(row[`cms:v${i}`]) ?? 0),
  newest: [int(row['cms:newest']) ?? 0, int(row['cms:newestVersion']) ?? 0],
  rows: int(row['cms:rows']) ?? 0,
});

export const sameState = (a: ListState, b: ListState) =>
  a.counters.every((n, i) => n === b.counters[i]) &&
  a.newest[0] === b.newest[0] &&
  a.newest[1] === b.newest[1] &&
  a.rows === b.rows;

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
 * counter moved); null when something else was written since, or it holds no state. `followed`: the key of
 * a list ./rows-rewritten.ts follows, whose noted updates and removals are accounted for too: for a count,
 * what they did to it; for a deep page's ids (`inPlace`), only those that left every row in its place.
 */
export async function upToDate(
  store: Store,
  kept: { counters: number[]; newest?: [number, number]; rows?: number },
  now: readonly number[],
  tables: readonly string[],
  filter: SQLPart | null,
  followed: string | null = null,
  inPlace = false,
): Promise<{ state: ListState; passing: number } | null> {
  if (!kept.newest || kept.rows === undefined) return null;
  const state = { counters: kept.counters, newest: kept.newest, rows: kept.rows };
  if (kept.counters.every((n, i) => n === now[i])) return { state, passing: 0 };
  if (!kept.counters.every((n, i) => i === 0 || n === now[i])) return null;
  return addedSince(store, tables, filter, state, followed, inPlace);
}

/**
 * The state now and how many of the rows added since `kept` the filter lets through (with what the noted
 * rewrites of a followed count did), when that is all that was written to the collection since and its
 * other tables did not change; null otherwise.
 */
async function addedSince(
  store: Store,
  tables: readonly string[],
  filter: SQLPart | null,
  kept: ListState,
  followed: string | null,
  inPlace: boolean,
): Promise<{ state: ListState; passing: number } | null> {
  const [newest, newestVersion] = kept.newest;
  const passes = filter ? `sum(CASE WHEN ${filter.sql} THEN 1 ELSE 0 END)` : 'count(*)';
  const row = (await store.get<Row>(
    `SELECT count(*) AS "added", ${passes} AS "passing", ${stateColumns(tables)},
      (SELECT count(*) FROM ${store.dialect.rowsById('_cms_versions')} WHERE "id" > ? AND ${VERSIONS_OF}) AS "versionsAdded"
    FROM ${store.dialect.rowsById(tables[0]!)} WHERE "id" > ?`,
    [...(filter?.params ?? []), ...stateParams(tables), newestVersion, tables[0], newest],
  ))!;
  const state = stateOf(row, tables);
  if (!state.counters.every((n, i) => i === 0 || n === kept.counters[i])) return null;
  const added = int(row.added)!;
  const passing = int(row.passing) ?? 0;
  const rewrites = state.rows - kept.rows - added;
  // A filter that reads other rows (through a relationship, or the version table) may change with any
  // write the collection's counter shows: only creates (their rows and their version rows) leave it.
  if (!readsOnlyItsRow(filter))
    return rewrites === 0 && state.counters[0]! - kept.counters[0]! === added + int(row.versionsAdded)!
      ? { state, passing }
      : null;
  if (rewrites === 0) return { state, passing };
  const moved = followed === null ? null : rewritten(store, tables[0]!, followed, kept, state.rows, rewrites, inPlace);
  return moved === null ? null : { state, passing: passing + moved };
}

/**
 * What the updates and removals written since `kept` did to the count kept under `key`, when the noted ones
 * are all of them (`rewrites` rows written beyond those added); null otherwise, and, with `inPlace`, when
 * one moved a row of the list. A row above the kept id was added since: the walk sees it as it is now, and
 * one removed again moved the counter once more.
 */
function rewritten(
  store: Store,
  table: string,
  key: string,
  kept: ListState,
  now: number,
  rewrites: number,
  inPlace: boolean,
) {
  const noted = rewritesBetween(store, table, kept.rows, now);
  if (!noted) return null;
  let moved = 0;
  let written = 0;
  const [newest] = kept.newest;
  for (const rewrite of noted) {
    written += rewrite.id > newest && rewrite.deleted ? 2 : 1;
    if (rewrite.id > newest) continue;
    if (inPlace && !leftInPlace(rewrite, key)) return null;
    const by = moveOf(rewrite, key);
    if (by === undefined) return null;
    moved += by;
  }
  return written === rewrites ? moved : null;
}
