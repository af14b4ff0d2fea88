/**
 * Noticing commits to a SQLite file, for the change counters of the response cache and the kept session
 * lookups (src/db/store.ts changeCounters).
 *
 * Only through SQLite itself: `PRAGMA data_version` on a read-only connection of the watcher's own, which
 * changes whenever any other connection (this process's writer, another process) committed. Never by
 * opening or mapping the `-shm`, `-wal` or database file with a descriptor of our own: POSIX locks belong
 * to the process, closing any descriptor of a file drops all of them, SQLite's included, and another
 * process may then reset the shared memory under the server, which dies with SIGBUS on its next touch of
 * the mapping (docs/operations.md "Other processes on the database file").
 *
 * The pragma opens a read transaction (a few microseconds, docs/benchmarks.md), so it runs at most once
 * per turn of the event loop: a request that arrives after a commit was acknowledged is handled in a later
 * turn, and this process's own commits (`noteCommit`, called by every store on the file) make the next
 * call look again at once.
 */
import path from 'node:path';
import { Database } from 'bun:sqlite';

export type CommitWatcher = {
  /**
   * Whether any connection committed to the file since the last call that answered true. `latest`: look at
   * the file even when it was looked at earlier in this turn of the event loop.
   */
  changed(latest?: boolean): boolean;
  close(): void;
};

/** Commits made by this process's stores, per file: they outdate a watcher's answer within the same turn. */
const commitsHere = new Map<string, number>();

/** Each name a store passes, resolved once: a commit then costs a map lookup, not a path resolution. */
const resolvedNames = new Map<string, string>();

export function noteCommit(file: string): void {
  let key = resolvedNames.get(file);
  if (key === undefined) resolvedNames.set(file, (key = path.resolve(file)));
  commitsHere.set(key, (commitsHere.get(key) ?? 0) + 1);
}

export function commitWatcher(file: string): CommitWatcher {
  const key = path.resolve(file);
  const db = new Database(file, { readonly: true });
  db.exec('PRAGMA busy_timeout = 5000');
  const dataVersion = db.query<{ data_version: number }, []>('PRAGMA data_version');
  let lastVersion = -1;
  let lastHere = -1;
  let lookedThisTurn = false;
  const endTurn = () => {
    lookedThisTurn = false;
  };
  return {
    changed(latest = false) {
      const here = commitsHere.get(key) ?? 0;
      if (lookedThisTurn && here === lastHere && !latest) return false;
      if (!lookedThisTurn) {
        lookedThisTurn = true;
        setImmediate(endTurn);
      }
      lastHere = here;
      const now = dataVersion.get()!.data_version;
      if (now === lastVersion) return false;
      lastVersion = now;
      return true;
    },
    close() {
      dataVersion.finalize();
      db.close();
    },
  };
}
