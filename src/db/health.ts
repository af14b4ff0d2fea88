/**
 * The database questions of `GET /health` and `GET /metrics` (docs/operations.md), kept here so the storage
 * layer can answer them its own way: does the database answer, and how big is it.
 */
import type { CMS } from '../cms.ts';

/** True when a trivial query answers. */
export async function databaseAnswers(cms: CMS): Promise<boolean> {
  try {
    return (await cms.store.get('SELECT 1 AS "ok"')) !== null;
  } catch {
    return false;
  }
}

/** The database's size in bytes, as its engine counts it. */
export async function databaseBytes(cms: CMS): Promise<number> {
  return Number((await cms.store.get<{ bytes: number }>(cms.store.dialect.databaseSize))?.bytes ?? 0);
}
