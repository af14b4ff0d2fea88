/**
 * Reading the change counters of `_cms_changes` (triggers bump them on every write to a content table,
 * a version row, a session or a second factor: src/db/change-triggers.ts and system migration 0005) for
 * a list of tables, and comparing two readings. What is kept in memory on the strength of a reading (a
 * response, a session lookup) is used again only while a new reading equals the one taken before it was
 * made.
 */
import type { Store } from '../db/store.ts';

export async function countersOf(store: Store, tables: readonly string[]): Promise<number[]> {
  const current = await store.changeCounters();
  return tables.map((table) => current.get(table) ?? 0);
}

export const sameCounters = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((n, i) => n === b[i]);
