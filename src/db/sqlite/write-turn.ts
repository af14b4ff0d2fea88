/**
 * Whose turn it is to write one SQLite file in this process, and group commit.
 *
 * Transactions on one file run one after another (one `WriteTurn` per file, shared by every store of the
 * process on it), so two never interleave across the awaits inside them. Each is `BEGIN IMMEDIATE`, so
 * check-then-write stays safe against other processes.
 *
 * Group commit: when a transaction ends while others are already queued behind it, its COMMIT is left to
 * the last of them: the queued ones run inside the same BEGIN IMMEDIATE, each in its own SAVEPOINT, and
 * the batch commits once, at the end of the event loop's turn in which no transaction is running or
 * waiting any more (or after `MAX_BATCH` of them), so the writes of requests served together share it. The
 * commit (the WAL append) and the BEGIN (the write lock) were most of a small write's cost; sharing them
 * is what lets many concurrent writes go faster than one statement each. Nothing about a single write
 * changes:
 * - every write is still all or nothing: a failing one rolls back to its savepoint, and only its own
 *   statements are undone (the first of a batch needs no savepoint: nothing else is in it yet);
 * - a write's promise settles only after the COMMIT that holds it returned, so every acknowledged write is
 *   committed; a failed COMMIT fails every write of its batch, and none of them was acknowledged;
 * - order is the queue's: a write sees the writes queued before it, exactly as if each had committed.
 * A lone write waits for the end of the event loop's turn it ran in (microseconds, no timer) to commit.
 */
import path from 'node:path';

/** What a batch needs of the connection it runs on (prepared statements: `exec` re-parses each call). */
export type WriteConnection = {
  begin(): void;
  /**
   * A promise: the commit is durable only once it settles (a synchronous replica, docs/replication.md);
   * the batch's writes are acknowledged then, while the next batch already runs.
   */
  commit(): void | Promise<void>;
  rollback(): void;
  savepoint(): void;
  releaseSavepoint(): void;
  rollbackToSavepoint(): void;
  /** False once SQLite has rolled the whole transaction back by itself (I/O errors, a full disk). */
  inTransaction(): boolean;
};

type Batch = {
  on: WriteConnection;
  members: number;
  committed: Promise<void>;
  settle(error?: unknown): void;
  /** The commit scheduled for the end of this turn of the event loop. */
  timer: ReturnType<typeof setImmediate> | null;
};

export type WriteTurn = {
  key: string;
  next: Promise<void>;
  /** A transaction is running (between its start and its end; the batch may outlive it). */
  held: boolean;
  /** Transactions waiting for their turn: while there are some, the open batch is left for them to join. */
  waiting: number;
  batch: Batch | null;
  stores: number;
};

/** Writes sharing one commit at most; bounds how long the write lock is held against other processes. */
export const MAX_BATCH = 64;

const turns = new Map<string, WriteTurn>();

export function turnFor(file: string): WriteTurn {
  // Every `:memory:` database is its own.
  const key = file === ':memory:' ? `:memory:${Bun.randomUUIDv7()}` : path.resolve(file);
  let turn = turns.get(key);
  if (!turn) turns.set(key, (turn = { key, next: Promise.resolve(), held: false, waiting: 0, batch: null, stores: 0 }));
  turn.stores++;
  return turn;
}

export function releaseTurn(turn: WriteTurn): void {
  if (--turn.stores === 0) turns.delete(turn.key);
}

/** Whether a write outside a transaction must queue: a transaction runs, or a batch is still open. */
export const turnBusy = (turn: WriteTurn) => turn.held || turn.batch !== null;

function openBatch(on: WriteConnection): Batch {
  on.begin();
  let settle!: (error?: unknown) => void;
  const committed = new Promise<void>(
    (resolve, reject) => (settle = (error) => (error === undefined ? resolve() : reject(error))),
  );
  // Members that failed on their own never await it; a failed commit must not become an unhandled rejection.
  committed.catch(() => {});
  return { on, members: 0, committed, settle, timer: null };
}

function commitBatch(turn: WriteTurn, batch: Batch): void {
  turn.batch = null;
  if (batch.timer) clearImmediate(batch.timer);
  let durable: void | Promise<void>;
  try {
    durable = batch.on.commit();
  } catch (error) {
    if (batch.on.inTransaction()) batch.on.rollback();
    batch.settle(error);
    return;
  }
  if (durable) durable.then(() => batch.settle(), batch.settle);
  else batch.settle();
}

/** Runs `work` as one transaction on `on`, in the file's turn; resolves once its writes are committed. */
export async function inTurn<T>(turn: WriteTurn, on: WriteConnection, work: () => Promise<T>): Promise<T> {
  const previous = turn.next;
  let release!: () => void;
  turn.next = new Promise((resolve) => (release = resolve));
  turn.waiting++;
  await previous;
  turn.waiting--;
  turn.held = true;
  let batch: Batch | null = null;
  let failure: { error: unknown } | null = null;
  let result!: T;
  try {
    // A batch on another connection to this file (a second store of this process) commits first.
    if (turn.batch && turn.batch.on !== on) commitBatch(turn, turn.batch);
    batch = turn.batch ?? (turn.batch = openBatch(on));
    const alone = batch.members++ === 0;
    if (!alone) on.savepoint();
    try {
      result = await work();
      if (!alone) on.releaseSavepoint();
    } catch (error) {
      failure = { error };
      if (!on.inTransaction()) {
        // SQLite rolled back the whole batch: the writes before this one are gone too.
        turn.batch = null;
        batch.settle(error);
      } else if (alone) {
        turn.batch = null;
        on.rollback();
        batch.settle();
      } else {
        on.rollbackToSavepoint();
        on.releaseSavepoint();
      }
    }
  } catch (error) {
    // BEGIN or SAVEPOINT failed (busy past busy_timeout): nothing of this write ran.
    failure ??= { error };
  } finally {
    if (batch && turn.batch === batch) afterMember(turn, batch);
    turn.held = false;
    release();
  }
  if (failure) throw failure.error;
  await batch!.committed;
  return result;
}

/**
 * A member is done: a queued transaction carries the batch on; a full batch commits now; else the commit
 * waits for the end of this turn of the event loop, so requests that reach their write in the same turn
 * share it. If a member is running then, it schedules the commit again when it ends.
 */
function afterMember(turn: WriteTurn, batch: Batch): void {
  if (batch.members >= MAX_BATCH) return commitBatch(turn, batch);
  if (turn.waiting > 0 || batch.timer) return;
  batch.timer = setImmediate(() => {
    batch.timer = null;
    if (turn.batch === batch && !turn.held && turn.waiting === 0) commitBatch(turn, batch);
  });
}

/** Commits the batch open on `on` now (closing the store). */
export function flushBatch(turn: WriteTurn, on: WriteConnection): void {
  if (turn.batch?.on === on) commitBatch(turn, turn.batch);
}
