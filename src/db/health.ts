/**
 * The database questions of `GET /health` and `GET /metrics` (CONTRACT §10), kept here so the storage
 * layer can answer them its own way: does the database answer, and how big is it.
 */
import fs from 'node:fs';
import type { CMS } from '../cms.ts';

/** True when a trivial query answers. */
export function databaseAnswers(cms: CMS): boolean {
  try {
    return cms.sqlite.query('select 1 as ok').get() !== null;
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
