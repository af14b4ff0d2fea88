/**
 * The reads of one turn of the event loop share one read transaction on the read connection.
 *
 * Each statement run outside a transaction is a read transaction of its own, and starting and ending one
 * takes SQLite two system calls (a POSIX lock on the `-shm` file taken and dropped): on this project's VM
 * 6–8 µs of CPU per primary-key read alone, against 1.1–1.3 µs inside a transaction shared by 16 reads
 * (docs/benchmarks.md). So the first read of a turn opens a transaction and the turn's other reads join
 * it; it ends with the turn, serves `SNAPSHOT_MS` at most, and ends at once whenever any store of this
 * process commits to the file (`endReadSnapshots`), so a read never misses a write this process has
 * acknowledged. It also ends before this process asks for the write lock: that wait blocks the thread,
 * and another process holding the lock may be waiting for this snapshot to end (a checkpoint that empties
 * the log waits for every reader). A commit of another process reaches this one only through something
 * that arrives in a later turn (a request, a message, a timer), when the snapshot is gone. The store's
 * change counters are read in the same snapshot (`PRAGMA data_version` of the read connection says when
 * to read them again), so they always agree with the rows the turn reads.
 */
import type { Database } from 'bun:sqlite';

/** How long one snapshot serves at most, however long its turn: a bound on how old a read can be. */
export const SNAPSHOT_MS = 2;

export type ReadSnapshot = {
  /** Before a read: joins the open snapshot, or opens one. */
  enter(): void;
  /** Ends the open snapshot, if any: the next read sees the last commit. */
  end(): void;
  /** How many snapshots were opened so far: the same number, the same state of the file. */
  opened(): number;
  close(): void;
};

/** The open snapshots of each file (by the write turn's key), for the commits of this process to end. */
const openByFile = new Map<string, Set<ReadSnapshot>>();

/** After a commit of this process to `key`: every snapshot on that file ends. */
export function endReadSnapshots(key: string): void {
  const open = openByFile.get(key);
  if (open) for (const snapshot of open) snapshot.end();
}

export function readSnapshot(reader: Database, key: string, now: () => number): ReadSnapshot {
  const begin = reader.prepare('BEGIN');
  const commit = reader.prepare('COMMIT');
  let openedAt = -1;
  let opened = 0;
  const end = () => {
    if (openedAt < 0) return;
    openedAt = -1;
    if (reader.inTransaction) commit.run();
  };
  const snapshot: ReadSnapshot = {
    enter() {
      if (openedAt >= 0) {
        if (now() - openedAt <= SNAPSHOT_MS) return;
        end();
      }
      if (!reader.inTransaction) begin.run();
      opened++;
      openedAt = now();
      setImmediate(end);
    },
    end,
    opened: () => opened,
    close() {
      end();
      const open = openByFile.get(key);
      open?.delete(snapshot);
      if (open?.size === 0) openByFile.delete(key);
      begin.finalize();
      commit.finalize();
    },
  };
  let open = openByFile.get(key);
  if (!open) openByFile.set(key, (open = new Set()));
  open.add(snapshot);
  return snapshot;
}
