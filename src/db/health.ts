/**
 * The database questions of `GET /health` and `GET /metrics` (CONTRACT §10), kept here so the storage
 * layer can answer them its own way: does the database answer, and how big is it.
 */
import fs from 'node:fs';
import type { CMS } from '../cms.ts';

/** True when a trivial query answers. */
export async function databaseAnswers(cms: CMS): Promise<boolean> {
  try {
    return (await cms.store.get('SELECT 1 AS "ok"')) !== null;
  } catch {
    return false;
  }
}

/** Bytes on disk: the SQLite file and its write-ahead log. */
export function databaseBytes(cms: CMS): number {
  let bytes = 0;
  for (const file of [cms.config.databasePath, `${cms.config.databasePath}-wal`]) {
    try {
      bytes += fs.statSync(file).size;
    } catch {
      /* no WAL yet */
    }
  }
  return bytes;
}
