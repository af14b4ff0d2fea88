/**
 * What a kept count needs to survive updates and deletes of single rows made by this process
 * (docs/documents.md, "How totals are counted"). An update can move a row across a list's filter, which no
 * counter tells; so while counts of a table are kept, each update or delete of one of its rows by id asks,
 * in the write's own transaction, whether the row passed each kept filter before and after, and reads the
 * table's row counter after it (`<table>:rows`, moved by one per row inserted, updated or deleted, by any
 * writer: the triggers). Its position in that counter and what it did to each count are noted once the
 * transaction commits. A kept count then moves by what the noted rewrites did, when they are all the
 * rewrites since it was counted (the counter says how many rows were written); a rewrite by another process
 * or instance, or by a statement not noted here, leaves a gap and the count is counted again.
 *
 * Only filters that read nothing but the row itself are followed (no subquery): whether a row passes one
 * changes only when the row is written. A deep page's kept ids (./deep-ids.ts) are followed with the terms
 * of their list's order too: a rewrite that leaves the row out of the list, or in it with the same values
 * of those terms, moves no row of the list to another place.
 */
import { COUNTER_NOW, quote, rowsCounter, type Queryable, type SQLPart, type Store } from './store.ts';

/** What a write that rewrites rows needs to be noted: the store it commits to, and a call after its commit. */
export type CommitWatch = { store: Store; afterCommit(fn: () => void): void };

/**
 * One rewrite: its place in the table's row counter, the row, and what it did to each list followed then
 * (`keys`, shared by the rewrites of one set of followed lists): `moves`, to its count (-1, 0 or 1);
 * `placed`, 1 when the row is in the list after it and a term of the list's order changed.
 */
export type Rewrite = {
  at: number;
  id: number;
  deleted: boolean;
  keys: readonly string[];
  moves: Int8Array;
  placed: Uint8Array;
};

/** What the rewrite did to the count kept under `key`; undefined when that list was not followed then. */
export function moveOf(rewrite: Rewrite, key: string): number | undefined {
  const i = rewrite.keys.indexOf(key);
  return i < 0 ? undefined : rewrite.moves[i];
}

/**
 * Whether the rewrite left every row of the list kept under `key` in its place: it did not move the row in
 * or out, nor, in it, to another place; undefined when that list was not followed then.
 */
export function leftInPlace(rewrite: Rewrite, key: string): boolean | undefined {
  const i = rewrite.keys.indexOf(key);
  return i < 0 ? undefined : rewrite.moves[i] === 0 && rewrite.placed[i] === 0;
}

/** A followed list: its filter, and for a deep page's ids the terms of its order. */
type Followed = { filter: SQLPart; order: string[] };

/** The terms of an ORDER BY clause (`"n" DESC, "id" DESC`), as the sort compiler joins them. */
const termsOf = (orderBy: string) =>
  orderBy
    .split(/ (?:ASC|DESC)(?:, |$)/)
    .map((term) => term.trim())
    .filter(Boolean);

/** Filters followed per table: the first ones kept, the oldest making way; the others count again after a rewrite. */
const FOLLOWED = 8;
/**
 * A filter no list asked for during this many rewrites is no longer followed (a bulk update pays for the
 * looks a while, not throughout); the next list counts again and follows it anew.
 */
const UNASKED = 256;
/** Rewrites noted per table, the newest; a count older than all of them counts again. */
const NOTED = 2048;

/**
 * `asked`: per followed filter, `rewrites` when a list last asked for its count; `keys`: the followed
 * filters' keys, in order, made again when they change.
 */
type Table = {
  filters: Map<string, Followed>;
  asked: Map<string, number>;
  rewrites: number;
  keys: readonly string[] | null;
  noted: Map<number, Rewrite>;
};
const byStore = new WeakMap<Store, Map<string, Table>>();

function tableOf(store: Store, table: string): Table {
  let tables = byStore.get(store);
  if (!tables) byStore.set(store, (tables = new Map()));
  let found = tables.get(table);
  if (!found)
    tables.set(table, (found = { filters: new Map(), asked: new Map(), rewrites: 0, keys: null, noted: new Map() }));
  return found;
}

function unfollow(followed: Table, key: string): void {
  followed.filters.delete(key);
  followed.asked.delete(key);
  followed.keys = null;
}

/** Whether a filter reads only the row it is asked of: one with a subquery may read other rows. */
export const readsOnlyItsRow = (filter: SQLPart | null) => !filter || !/\bselect\b/i.test(filter.sql);

/**
 * Follow the list kept under `key` of `table`'s rows that `filter` lets through (the newest `FOLLOWED`):
 * its count, or, with `orderBy`, a deep page's ids in that order.
 */
export function follow(
  store: Store,
  table: string,
  key: string,
  filter: SQLPart | null,
  orderBy: string | null = null,
): void {
  if (!readsOnlyItsRow(filter)) return;
  const followed = tableOf(store, table);
  const { filters } = followed;
  followed.asked.set(key, followed.rewrites);
  if (filters.has(key)) return;
  filters.set(key, { filter: filter ?? { sql: '1 = 1', params: [] }, order: orderBy ? termsOf(orderBy) : [] });
  if (filters.size > FOLLOWED) unfollow(followed, filters.keys().next().value!);
  followed.keys = null;
}

/**
 * For each followed list, 1 when row `id` passes its filter now, 0 otherwise, and the values of its order's
 * terms; with the row counter when asked.
 */
async function passes(tx: Queryable, table: string, id: number, lists: Followed[], withCounter: boolean) {
  // Before the write, the row is locked first (PostgreSQL): another instance's write of it cannot land
  // between this look and the write.
  const lock = withCounter ? '' : tx.dialect.lockRow;
  const columns = lists.flatMap(({ filter, order }, i) => [
    `CASE WHEN ${filter.sql} THEN 1 ELSE 0 END AS "cms:k${i}"`,
    ...order.map((term, j) => `${term} AS "cms:k${i}:${j}"`),
  ]);
  if (withCounter) columns.push(`${COUNTER_NOW} AS "cms:at"`);
  return tx.get<Record<string, unknown>>(`SELECT ${columns.join(', ')} FROM ${quote(table)} WHERE "id" = ?${lock}`, [
    ...lists.flatMap((f) => f.filter.params),
    ...(withCounter ? [rowsCounter(table)] : []),
    id,
  ]);
}

/** Whether a value of a term differs (dates come back as objects on PostgreSQL: compared as JSON). */
const differs = (a: unknown, b: unknown) => a !== b && JSON.stringify(a) !== JSON.stringify(b);

/**
 * Runs `write` (an update or delete of row `id` of `table`, answering the rows it changed) in `tx`, and
 * notes what it did to the followed counts once `watch`'s transaction commits.
 */
export async function rewriting(
  tx: Queryable,
  table: string,
  id: number,
  deleting: boolean,
  watch: CommitWatch | undefined,
  write: () => Promise<number>,
): Promise<void> {
  const followed = watch ? byStore.get(watch.store)?.get(table) : undefined;
  if (followed) for (const [key, at] of followed.asked) if (followed.rewrites - at > UNASKED) unfollow(followed, key);
  if (!watch || !followed || followed.filters.size === 0) return void (await write());
  followed.rewrites++;
  followed.keys ??= [...followed.filters.keys()];
  const { keys } = followed;
  const lists = [...followed.filters.values()];
  const before = await passes(tx, table, id, lists, false);
  if ((await write()) !== 1 || !before) return;
  const after = deleting
    ? await tx.get<Record<string, unknown>>(`SELECT ${COUNTER_NOW} AS "cms:at"`, [rowsCounter(table)])
    : await passes(tx, table, id, lists, true);
  if (!after) return;
  const inAfter = (i: number) => (deleting ? 0 : Number(after[`cms:k${i}`]));
  const moves = Int8Array.from(keys, (_, i) => inAfter(i) - Number(before[`cms:k${i}`]));
  const placed = Uint8Array.from(keys, (_, i) =>
    inAfter(i) === 1 && lists[i]!.order.some((_, j) => differs(before[`cms:k${i}:${j}`], after[`cms:k${i}:${j}`]))
      ? 1
      : 0,
  );
  const rewrite: Rewrite = { at: Number(after['cms:at']), id, deleted: deleting, keys, moves, placed };
  watch.afterCommit(() => {
    const { noted } = followed;
    noted.delete(rewrite.at);
    noted.set(rewrite.at, rewrite);
    if (noted.size > NOTED) noted.delete(noted.keys().next().value!);
  });
}

/**
 * The noted rewrites of `table` at row counts after `from` up to `to` (the caller tells from the counter
 * whether they are all the rewrites there were); null when so many rows were written that some may have
 * been forgotten.
 */
export function rewritesBetween(store: Store, table: string, from: number, to: number): Rewrite[] | null {
  if (to - from > NOTED) return null;
  const noted = byStore.get(store)?.get(table)?.noted;
  if (!noted) return null;
  const found: Rewrite[] = [];
  for (const rewrite of noted.values()) if (rewrite.at > from && rewrite.at <= to) found.push(rewrite);
  return found;
}
