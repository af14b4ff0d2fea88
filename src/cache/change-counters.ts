/**
 * Reading the change counters of `_cms_changes` (triggers bump them on every write to a content table,
 * a version row, a session — but not its `lastUsedAt` mark — or a second factor: src/db/change-triggers.ts
 * and system migrations 0005 and 0006) for a list of tables, and comparing two readings. What is kept in
 * memory on the strength of a reading (a response, a session lookup) is used again only while a new
 * reading equals the one taken before it was made.
 */
import type { Store } from '../db/store.ts';

export type Reading = ReadonlyMap<string, number>;

const byRequest = new WeakMap<Request, Promise<Reading>>();

/**
 * One reading per request, taken at its first use: the session lookup, the kept answer's check and the
 * read computed on a miss all need counters read before their own work, and a reading from the request's
 * start is that for each (it sees every commit acknowledged before the request arrived). Only for what
 * runs before the request writes anything it must then see: the credentials (src/http/authenticate.ts
 * credentialsOf) and the GET reads (src/http/cached-read.ts). An answer computed later is kept with these
 * older counters, so a write committed meanwhile only makes it stale sooner. A request with credentials
 * takes an exact reading (it checks its session with it); an anonymous one the store's notified counters,
 * which on PostgreSQL cost no query while the instance listens for changes (src/db/store.ts).
 */
export function requestReading(store: Store, request: Request, options: { exact?: boolean } = {}): Promise<Reading> {
  let reading = byRequest.get(request);
  if (!reading) byRequest.set(request, (reading = store.changeCounters(options)));
  return reading;
}

export async function countersOf(reading: Promise<Reading>, tables: readonly string[]): Promise<number[]> {
  const current = await reading;
  return tables.map((table) => current.get(table) ?? 0);
}

export const sameCounters = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((n, i) => n === b[i]);
