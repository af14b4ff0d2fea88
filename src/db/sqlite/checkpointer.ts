/**
 * WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside the COMMIT that takes
 * the log past 1000 pages, on the thread that committed, fsync of the database file included: on this
 * project's machine such a commit takes ~3 ms where the others take microseconds, and every request
 * waits for it (docs/benchmarks.md). So a store whose wal-index header it can read turns the automatic
 * checkpoint off, and after each commit that leaves the log past the same size asks a worker thread,
 * with a connection of its own, to checkpoint (PASSIVE: it never waits for readers or writers and never
 * blocks them). The next write after a complete checkpoint starts the log again from its beginning.
 * Writes that never pause could keep a checkpoint from ever completing (each one misses the frames
 * appended meanwhile), so past HARD_LIMIT_FRAMES the committing thread checkpoints itself, as SQLite
 * would have: the log stays bounded either way. Should the worker fail, the store turns SQLite's own
 * checkpoint back on.
 */

// Inline source (a blob URL) rather than a worker file: it needs no extra entry point in the single binary
// (as src/db/sqlite/snapshot.ts).
const WORKER_SOURCE = `
import { Database } from 'bun:sqlite';
let db = null;
self.onmessage = ({ data: { file } }) => {
  try {
    if (!db) {
      db = new Database(file);
      db.exec('PRAGMA busy_timeout = 5000');
    }
    db.query('PRAGMA wal_checkpoint(PASSIVE)').get();
    postMessage({});
  } catch {
    postMessage({ failed: true });
  }
};
`;

/** SQLite's own threshold (wal_autocheckpoint's default), in frames (pages). */
export const CHECKPOINT_FRAMES = 1000;
/** Past this the committing thread checkpoints at once (about 16 MB of 4 KB pages). */
export const HARD_LIMIT_FRAMES = 4 * CHECKPOINT_FRAMES;

let workerURL: string | null = null;

export type Checkpointer = {
  /** After a commit: asks for a checkpoint when the log has grown past the threshold and none is under way; never throws. */
  afterCommit(): void;
  /** Waits for the checkpoint under way, if any, and ends the worker. */
  close(): Promise<void>;
};

/**
 * `walFrames`: the log's current length; `checkpointHere`: a PASSIVE checkpoint on the writer itself (the
 * bound); `onFailure`: the worker could not checkpoint (turn SQLite's own back on).
 */
export function startCheckpointer(file: string, walFrames: () => number, checkpointHere: () => void, onFailure: () => void): Checkpointer {
  let worker: Worker | null = null;
  let running: Promise<void> | null = null;
  let failed = false;
  const ask = () => {
    workerURL ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' }));
    if (!worker) {
      worker = new Worker(workerURL);
      // A script's store must not keep its process alive (Bun's Worker has unref, the DOM type does not).
      (worker as Worker & { unref(): void }).unref();
    }
    const w = worker;
    const framesAsked = walFrames();
    running = new Promise<void>((resolve) => {
      const fail = () => {
        failed = true;
        onFailure();
      };
      w.onmessage = ({ data }) => {
        if (data.failed) fail();
        resolve();
      };
      w.onerror = () => {
        fail();
        resolve();
      };
      w.postMessage({ file });
    }).finally(() => {
      running = null;
      // Frames appended while it ran were not in it: once more, so that the log is whole in the database
      // when the writes stop (and not again while nothing new comes, e.g. behind a long reader).
      if (!failed && walFrames() > framesAsked) ask();
    });
  };
  return {
    afterCommit() {
      if (failed) return;
      // Never throws: it runs right after a COMMIT that succeeded, and must not make it look failed. A
      // checkpoint that cannot run now (busy) runs after a later commit.
      try {
        const frames = walFrames();
        if (frames >= HARD_LIMIT_FRAMES) checkpointHere();
        else if (!running && frames >= CHECKPOINT_FRAMES) ask();
      } catch {
        // Nothing lost: the frames stay in the log until the next checkpoint.
      }
    },
    async close() {
      await running;
      worker?.terminate();
      worker = null;
    },
  };
}
