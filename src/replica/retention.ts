/**
 * Retention (docs/replication.md "Retention"): snapshots and segments older than `retentionDays` go,
 * keeping what a restore to any moment inside the window needs: the newest snapshot taken before the
 * window starts, and every segment after it. Uploads' objects go once no moment inside the window names
 * them: the lists of uploads beside the snapshots say which ones a restore may still need (the files of
 * that oldest kept snapshot's moment, and of every later one, and every file stored after it), and the
 * running process adds the files it stored since its last snapshot.
 */
import { readCatalog, type Catalog, type SnapshotEntry } from './catalog.ts';
import { snapshotFilesKey, unpackFiles, unpackSegment, uploadKey } from './objects.ts';
import type { ReplicaTarget } from './target.ts';

const DAY_MS = 86_400_000;

/** What the running process knows of the uploads (./uploads.ts). */
export type UploadsInUse = {
  /** True while a stored file, or one stored since the last snapshot, has these bytes. */
  inUse(sha256: string): boolean;
  /** The object is about to be removed: a file with these bytes stored later goes up again. */
  forget(sha256: string): void;
};

/** Removes what the window no longer needs; answers the keys removed and the oldest moment still restorable. */
export async function applyRetention(
  target: ReplicaTarget,
  now: number,
  retentionDays: number,
  uploads: { encryptionKey: string | null; running: UploadsInUse } | null = null,
): Promise<{ removed: string[]; oldest: number | null }> {
  const catalog = await readCatalog(target);
  const windowStart = now - retentionDays * DAY_MS;
  const base = catalog.snapshots.filter((s) => s.at <= windowStart).at(-1);
  if (!base) return { removed: [], oldest: catalog.snapshots[0]?.at ?? null };
  const removed = await removeOutside(target, catalog, base, uploads);
  return { removed, oldest: base.at };
}

async function removeOutside(
  target: ReplicaTarget,
  catalog: Catalog,
  base: SnapshotEntry,
  uploads: { encryptionKey: string | null; running: UploadsInUse } | null,
): Promise<string[]> {
  const needsFrom = Math.min(base.txid, base.uploadsTxid) + 1;
  const oldSnapshots = catalog.snapshots.filter((s) => s.txid < base.txid).map((s) => s.key);
  const removable = [
    ...oldSnapshots,
    ...oldSnapshots.map(snapshotFilesKey).filter((key) => catalog.fileLists.has(key)),
    ...catalog.segments.filter((s) => s.to < needsFrom).map((s) => s.key),
  ];
  for (const key of removable) await target.remove(key);
  if (!uploads) return removable;
  // A kept snapshot without its list (written before lists were kept) could need any file: all stay.
  const lists = catalog.snapshots.filter((s) => s.txid >= base.txid).map((s) => snapshotFilesKey(s.key));
  if (!lists.every((key) => catalog.fileLists.has(key))) return removable;
  const needed = new Set<string>();
  for (const [i, key] of lists.entries()) {
    const bytes = await target.get(key);
    // Gone meanwhile (another retention pass): nothing can be decided safely this time.
    if (!bytes) return removable;
    const { stored, added } = unpackFiles(key, bytes, uploads.encryptionKey);
    // What was stored before the oldest kept snapshot and removed by then is outside the window.
    for (const sha256 of i === 0 ? stored : [...stored, ...added]) needed.add(sha256);
  }
  for (const sha256 of catalog.uploads) {
    if (needed.has(sha256) || uploads.running.inUse(sha256)) continue;
    uploads.running.forget(sha256);
    await target.remove(uploadKey(sha256));
    removable.push(uploadKey(sha256));
  }
  return removable;
}

/**
 * The sha256 of every file stored after the newest snapshot's list of uploads, from the segments since:
 * read once at start, for the next list (the process that stored them stopped before writing it).
 */
export async function storedSince(
  target: ReplicaTarget,
  catalog: Catalog,
  encryptionKey: string | null,
): Promise<Set<string>> {
  const found = new Set<string>();
  const newest = catalog.snapshots.at(-1);
  if (!newest) return found;
  for (const segment of catalog.segments) {
    if (segment.to <= newest.uploadsTxid) continue;
    const bytes = await target.get(segment.key);
    if (!bytes) continue;
    for (const transaction of unpackSegment(segment.key, bytes, encryptionKey))
      for (const change of transaction.files ?? []) if (change.sha256) found.add(change.sha256);
  }
  return found;
}
