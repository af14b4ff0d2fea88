/**
 * The capture side of replication: every committed transaction of the SQLite file, numbered (its txid),
 * with its statements and the time it committed, queued for shipping in commit order
 * (docs/replication.md). Each transaction also writes its own number into the `_cms_replica` row, inside
 * itself, so any copy of the database (a snapshot) says which transaction it ends with.
 */
import type { Params } from '../db/store.ts';
import type { CommitCapture } from '../db/sqlite/commit-capture.ts';

export type Statement = [sql: string, params: Params | null];
/** A stored upload appeared (sha256 of its bytes) or went (null). */
export type FileChange = { key: string; sha256: string | null };
/** A transaction of the database, or (no statements) a change of the stored uploads, numbered in one sequence. */
/**
 * `start`: a start of the server (no statements): what came before it that this process did not see
 * (migrations at start, commands run while none ran) is only in the snapshot taken then.
 */
export type Transaction = { txid: number; at: number; statements: Statement[]; files?: FileChange[]; start?: true };

export const POSITION_TABLE = '_cms_replica';
export const CREATE_POSITION = `CREATE TABLE IF NOT EXISTS "${POSITION_TABLE}" ("id" integer PRIMARY KEY CHECK ("id" = 1), "txid" integer NOT NULL, "at" integer NOT NULL)`;
export const SET_POSITION = `INSERT INTO "${POSITION_TABLE}" ("id", "txid", "at") VALUES (1, ?, ?) ON CONFLICT ("id") DO UPDATE SET "txid" = excluded."txid", "at" = excluded."at"`;

export type Recorder = CommitCapture & {
  /** Committed transactions not yet taken for shipping, oldest first. */
  queued: Transaction[];
  /** The number of the last committed transaction. */
  lastTxid(): number;
  /** Takes up to `max` queued transactions (they stay queued until `shipped`). */
  take(max: number): Transaction[];
  /** The first `count` queued transactions are on the replica. */
  shipped(count: number): void;
  /** A stored upload changed: numbered as a transaction of its own, between the database's. */
  fileChanged(change: FileChange): number;
};

/** `durable`: what a committed transaction waits for before its writes are acknowledged (sync mode). */
export function createRecorder(
  lastTxid: number,
  now: () => number,
  durable?: (txid: number) => Promise<void>,
): Recorder {
  let last = lastTxid;
  let open: Statement[] = [];
  const savepoints: number[] = [];
  let sealed: Transaction | null = null;
  const queued: Transaction[] = [];
  return {
    queued,
    lastTxid: () => last,
    begin() {
      open = [];
      savepoints.length = 0;
      sealed = null;
    },
    statement(sql, params) {
      open.push([sql, params === null ? null : [...params]]);
    },
    savepoint() {
      savepoints.push(open.length);
    },
    releaseSavepoint() {
      savepoints.pop();
    },
    rollbackToSavepoint() {
      // ROLLBACK TO keeps the savepoint open: the release that follows pops it.
      open.length = savepoints.at(-1) ?? 0;
    },
    seal(run) {
      if (open.length === 0) return;
      const at = now();
      sealed = { txid: last + 1, at, statements: open };
      run(SET_POSITION, [sealed.txid, at]);
      open = [];
    },
    committed() {
      const done = sealed;
      sealed = null;
      open = [];
      if (!done) return;
      last = done.txid;
      queued.push(done);
      return durable?.(done.txid);
    },
    abandon() {
      sealed = null;
      open = [];
      savepoints.length = 0;
    },
    fileChanged(change) {
      // Never inside a database transaction's seal and commit: those run in one synchronous step.
      last++;
      queued.push({ txid: last, at: now(), statements: [], files: [change] });
      return last;
    },
    take: (max) => queued.slice(0, max),
    shipped(count) {
      queued.splice(0, count);
    },
  };
}
