/**
 * The realtime change log across a restore (docs/realtime.md "After a restore"): the last id the data
 * about to be replaced handed out, read before the restore (PostgreSQL) or from the SQLite file it moved
 * aside, so the restored database's log goes on past it (realtime/change-log.ts `markRestore`).
 */
import fs from 'node:fs';
import { Database } from 'bun:sqlite';
import type { SanitizedConfig } from '../config/types.ts';
import { openStore } from '../db/open-store.ts';
import { lastChangeIdGiven } from '../realtime/change-log.ts';
import type { Store } from '../db/store.ts';

/** The last change id a SQLite file's log handed out (null: no file, or no log in it). */
export function lastChangeIdOfFile(file: string): number | null {
  if (!fs.existsSync(file)) return null;
  try {
    const db = new Database(file, { readonly: true });
    try {
      const log = db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_cms_events'").get();
      if (!log) return null;
      const row = db
        .query<{ last: number | null }, []>(
          `SELECT max(coalesce((SELECT "seq" FROM sqlite_sequence WHERE "name" = '_cms_events'), 0),
            coalesce((SELECT max("id") FROM "_cms_events"), 0)) AS "last"`,
        )
        .get();
      return Number(row?.last ?? 0);
    } finally {
      db.close();
    }
  } catch {
    // Not a database that reads: nothing to go by.
    return null;
  }
}

/** On PostgreSQL, before a restore replaces it: the last change id the database handed out (null: unknown). */
export async function lastChangeIdOfServer(config: SanitizedConfig): Promise<number | null> {
  let store: Store | null = null;
  try {
    store = await openStore(config);
    const { sql, params } = store.dialect.tableExists('_cms_events');
    if (!(await store.get(sql, params))) return null;
    return await lastChangeIdGiven(store);
  } catch {
    return null;
  } finally {
    await store?.close();
  }
}
