/**
 * WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside the COMMIT that takes
 * the log past 1000 pages, on the thread that committed, fsync of the database file included: on this
 * project's machine such a commit takes ~3 ms where the others take microseconds, and every request
 * waits for it (docs/benchmarks.md). So the store raises SQLite's threshold on its writer to
 * HARD_LIMIT_FRAMES and, every CHECKPOINT_COMMITS commits (or after a second of fewer), asks a worker
 * thread with a connection of its own to checkpoint (PASSIVE: it never waits for readers or writers and
 * never blocks them). The next write after a complete checkpoint starts the log again from its beginning.
 * Writes that never pause could keep a checkpoint from ever completing (each one misses the frames
 * appended meanwhile): then SQLite's own checkpoint at the raised threshold bounds the log. That one is
 * skipped while the worker's runs (both want the checkpoint lock, and SQLite's automatic checkpoint never
 * waits for it), so a worker's checkpoint that falls behind (a slow disk, a busy machine) makes writes wait:
 * past CHECKPOINT_COMMITS commits made while it runs, the next writes start once it has finished, and the
 * writer's own checkpoint gets its turn. Should the worker fail, the store puts SQLite's default threshold
 * back.
 *
 * The log's length is never read from the `-shm` file: only SQLite may open its files in this process
 * (docs/operations.md "Other processes on the database file" says why). Every commit appends at least one frame, so counting
 * commits asks no later than SQLite's own threshold would, for commits of one page or more.
 */

// Inline source (a blob URL) rather than a worker file: it needs no extra entry point in the single binary
// (as src/db/sqlite/snapshot.ts).
const WORKER_SOURCE = `
import { Database } from 'bun:sqlite';
let db = null;
self.onmessage = ({ data: { file, close } }) => {
  if (close) {
    // Closed here, not left to the thread's end: a connection left open keeps the file in use (a restore
    // then finds it held).
    db?.close();
    db = null;
    postMessage({ closed: true });
    return;
  }
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
/** Past this the committing thread checkpoints at once, SQLite's own way (about 16 MB of 4 KB pages). */
export const HARD_LIMIT_FRAMES = 4 * CHECKPOINT_FRAMES;
/** Commits (each at least one frame, most a few) between two checkpoints asked of the worker. */
export const CHECKPOINT_COMMITS = 250;
/** A slower trickle of commits is checkpointed this long after the last one asked. */
export const CHECKPOINT_AFTER_MS = 1000;

let workerURL: string | null = null;

export type Checkpointer = {
  /** After a commit: asks for a checkpoint when the log has grown past the threshold and none is under way; never throws. */
  afterCommit(): void;
  /**
   * The checkpoint under way when CHECKPOINT_COMMITS commits were made since it started (writes should wait
   * for it before they begin), else null.
   */
  behind(): Promise<void> | null;
  /** How many checkpoints were asked of the worker so far (tests, benchmarks). */
  asked(): number;
  /** Waits for the checkpoint under way, if any, and ends the worker. */
  close(): Promise<void>;
};

/** `now`: the clock in milliseconds; `onFailure`: the worker could not checkpoint (put SQLite's own threshold back). */
export function startCheckpointer(file: string, now: () => number, onFailure: () => void): Checkpointer {
  let worker: Worker | null = null;
  let running: Promise<void> | null = null;
  let failed = false;
  let commits = 0;
  let asked = 0;
  let askedAt = now();
  const ask = () => {
    asked++;
    commits = 0;
    askedAt = now();
    workerURL ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: 'application/javascript' }));
    if (!worker) {
      worker = new Worker(workerURL);
      // A script's store must not keep its process alive (Bun's Worker has unref, the DOM type does not).
      (worker as Worker & { unref(): void }).unref();
    }
    const w = worker;
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
      // Commits made while it ran were not in it. Not asked again at once: under a steady run of writes that
      // made a checkpoint (two fsyncs) every few commits. The next is asked after CHECKPOINT_COMMITS more, or
      // once the writes pause, so that the log is whole in the database when they stop (and not again
      // while nothing new comes, e.g. behind a long reader).
      if (!failed && commits > 0) later();
    });
  };
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closing = false;
  const later = () => {
    if (timer || closing) return;
    timer = setTimeout(() => {
      timer = null;
      if (failed || closing || running || commits === 0) return;
      try {
        ask();
      } catch {
        // As after a commit: the frames wait in the log for the next checkpoint.
      }
    }, CHECKPOINT_AFTER_MS);
    timer.unref();
  };
  return {
    afterCommit() {
      if (failed) return;
      // Never throws: it runs right after a COMMIT that succeeded, and must not make it look failed. A
      // checkpoint that cannot run now (busy) runs after a later commit.
      commits++;
      if (running) return;
      // Too soon: the timer asks if the writes pause before the threshold.
      if (commits < CHECKPOINT_COMMITS && now() - askedAt < CHECKPOINT_AFTER_MS) return later();
      try {
        ask();
      } catch {
        // Nothing lost: the frames stay in the log until the next checkpoint.
      }
    },
    // `commits` counts from the moment the running checkpoint was asked.
    behind: () => (running && commits >= CHECKPOINT_COMMITS ? running : null),
    asked: () => asked,
    async close() {
      closing = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      const w = worker;
      worker = null;
      if (!w) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        w.onmessage = () => {
          clearTimeout(timer);
          resolve();
        };
        w.postMessage({ close: true });
      });
      w.terminate();
    },
  };
}
