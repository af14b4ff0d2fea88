/** What the replica holds, from its listing alone: snapshots and segments by number, and their sizes. */
import { parseSegmentKey, parseSnapshotKey } from './objects.ts';
import type { ReplicaTarget } from './target.ts';

export type SnapshotEntry = { key: string; txid: number; at: number; uploadsTxid: number; size: number };
export type SegmentEntry = { key: string; from: number; to: number; size: number };
export type Catalog = {
  snapshots: SnapshotEntry[];
  segments: SegmentEntry[];
  /** The uploads' objects by sha256. */
  uploads: string[];
  /** The keys of the snapshots' lists of uploads (objects.ts `snapshotFilesKey`). */
  fileLists: Set<string>;
  /** Every object (each was one PUT), uploads included. */
  objects: number;
  bytes: number;
  /** The highest transaction number any snapshot or segment holds (0: none). */
  newestTxid: number;
};

export async function readCatalog(target: ReplicaTarget): Promise<Catalog> {
  const [snapshotKeys, segmentKeys, uploadKeys] = await Promise.all([
    target.list('snapshots/'),
    target.list('segments/'),
    target.list('uploads/'),
  ]);
  const snapshots = snapshotKeys
    .flatMap(({ key, size }) => {
      const parsed = parseSnapshotKey(key);
      return parsed ? [{ key, size, ...parsed }] : [];
    })
    .sort((a, b) => a.txid - b.txid);
  const segments = segmentKeys
    .flatMap(({ key, size }) => {
      const parsed = parseSegmentKey(key);
      return parsed ? [{ key, size, ...parsed }] : [];
    })
    .sort((a, b) => a.from - b.from || a.to - b.to);
  const all = [...snapshotKeys, ...segmentKeys, ...uploadKeys];
  return {
    snapshots,
    segments,
    uploads: uploadKeys.map(({ key }) => key.slice('uploads/'.length)),
    fileLists: new Set(snapshotKeys.filter(({ key }) => key.endsWith('.files')).map(({ key }) => key)),
    objects: all.length,
    bytes: all.reduce((sum, o) => sum + o.size, 0),
    newestTxid: Math.max(0, ...snapshots.map((s) => s.txid), ...segments.map((s) => s.to)),
  };
}
