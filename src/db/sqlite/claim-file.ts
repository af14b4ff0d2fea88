/**
 * Before a restore replaces a SQLite database, no process may have it open (docs/operations.md: restore refuses
 * while a server holds the data folder). SQLite's own locks tell: leaving WAL mode needs every other
 * connection closed, so `PRAGMA journal_mode = DELETE` with no busy wait fails at once while a server, a
 * `cms` command or the Local API has the file open, and otherwise folds the WAL into the main file, which
 * then moves aside as one self-contained file. Nothing to go stale after a crash, unlike a PID file.
 */
import fs from 'node:fs';
import { Database } from 'bun:sqlite';

/** True when the file was free (and is now one file without WAL); false when another connection holds it. */
export function claimDatabaseFile(file: string): boolean {
  if (!fs.existsSync(file)) return true;
  const db = new Database(file);
  try {
    db.exec('PRAGMA busy_timeout = 0');
    const mode = db.query<{ journal_mode: string }, []>('PRAGMA journal_mode = DELETE').get();
    return mode?.journal_mode === 'delete';
  } catch (error) {
    if (/locked|busy/i.test((error as Error).message)) return false;
    throw error;
  } finally {
    db.close();
  }
}
