/**
 * Noticing commits to a SQLite file without a query, for the change counters of the response cache and
 * the kept session lookups (src/db/store.ts changeCounters).
 */
import fs from 'node:fs';
import type { Database } from 'bun:sqlite';

/** Two copies of the 48-byte wal-index header (https://sqlite.org/walformat.html, "The WAL-Index Header"). */
const WAL_INDEX_HEADER_BYTES = 96;
/** mxFrame, the header's fifth 32-bit word (native byte order, like the whole wal-index). */
const MX_FRAME = 4;

/**
 * `via`: which of the two ways this watcher uses. `walFrames`: the frames in the write-ahead log now
 * (the header's mxFrame), known only when the header is mapped.
 */
export type CommitWatcher = (() => boolean) & { via: 'shm' | 'data_version'; walFrames?: () => number };

/**
 * Whether any connection (this process's writer, another process) committed to the file since the last
 * call. SQLite rewrites the wal-index header at the start of the `-shm` file on every commit, before the
 * commit is visible to anyone (a new frame count, and new salts when the log restarts), so comparing its
 * bytes with the last ones seen is a proof without a lock: a few dozen nanoseconds where
 * `PRAGMA data_version` opens a read transaction (~5 µs, a quarter of a cached read). A torn read while a
 * commit is being published only looks like a change. The mapping is safe while this store's own
 * connections keep the file open (SQLite only truncates the `-shm` of a database nobody has open). Where
 * the file cannot be mapped (another VFS, Windows), `PRAGMA data_version`.
 */
export function commitWatcher(file: string, reader: Database): CommitWatcher {
  let header: Uint32Array | null = null;
  try {
    // A first read makes sure the reader has the wal-index open and initialised.
    reader.query('SELECT 1 FROM sqlite_master LIMIT 1').get();
    const shm = `${file}-shm`;
    if (fs.statSync(shm).size >= WAL_INDEX_HEADER_BYTES) {
      const mapped = Bun.mmap(shm, { shared: true, size: WAL_INDEX_HEADER_BYTES });
      header = new Uint32Array(mapped.buffer, mapped.byteOffset, WAL_INDEX_HEADER_BYTES / 4);
    }
  } catch {
    header = null;
  }
  if (header) {
    const live = header;
    const seen = new Uint32Array(live.length);
    let first = true;
    return Object.assign(() => {
      let same = !first;
      for (let i = 0; same && i < live.length; i++) same = live[i] === seen[i];
      if (same) return false;
      first = false;
      seen.set(live);
      return true;
    }, { via: 'shm' as const, walFrames: () => live[MX_FRAME] });
  }
  const dataVersion = reader.query<{ data_version: number }, []>('PRAGMA data_version');
  let last = -1;
  return Object.assign(() => {
    const now = dataVersion.get()!.data_version;
    if (now === last) return false;
    last = now;
    return true;
  }, { via: 'data_version' as const });
}
