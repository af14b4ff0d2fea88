/**
 * A hook on every transaction the stores of this process commit to one SQLite file, for continuous
 * replication (docs/replication.md). The store reports each write statement of the open transaction, its
 * savepoints, and the commit; the capture numbers each committed transaction and keeps its statements, in
 * commit order. One capture per file, shared by every store of the process on it (they share one write
 * turn, so their transactions never interleave).
 */
import path from 'node:path';
import type { Params } from '../store.ts';

export type CommitCapture = {
  /** A transaction (or a batch of them) began: whatever was noted before it is gone. */
  begin(): void;
  /** A statement that may write ran in the open transaction (`params` null: several statements, no values). */
  statement(sql: string, params: Params | null): void;
  savepoint(): void;
  releaseSavepoint(): void;
  rollbackToSavepoint(): void;
  /** Just before COMMIT: numbers the transaction and writes its number into the database through `run`. */
  seal(run: (sql: string, params: Params) => unknown): void;
  /** The COMMIT returned; a promise when the write may be acknowledged only once it settles (sync mode). */
  committed(): void | Promise<void>;
  /** The transaction rolled back, or its COMMIT failed. */
  abandon(): void;
};

const captures = new Map<string, CommitCapture>();

/** Starts capturing the commits to `file`; answers the function that stops it. */
export function captureCommits(file: string, capture: CommitCapture): () => void {
  const key = path.resolve(file);
  captures.set(key, capture);
  return () => {
    if (captures.get(key) === capture) captures.delete(key);
  };
}

/** The capture on a file, by its resolved path (a write turn's key). */
export const captureOf = (key: string): CommitCapture | undefined => captures.get(key);
