/**
 * Retention (docs/replication.md "Retention"): snapshots and segments older than `retentionDays` go,
 * keeping what a restore to any moment inside the window needs: the newest snapshot taken before the
 * window starts, and every segment after it. Uploads' objects stay (a file may be named again later, and
 * reading every kept snapshot's list to know would cost more than the space).
 */
import { readCatalog } from './catalog.ts';
import type { ReplicaTarget } from './target.ts';

const DAY_MS = 86_400_000;

/** Removes what the window no longer needs; answers the keys removed. */
export async function applyRetention(target: ReplicaTarget, now: number, retentionDays: number): Promise<string[]> {
  const catalog = await readCatalog(target);
  const windowStart = now - retentionDays * DAY_MS;
  const base = catalog.snapshots.filter((s) => s.at <= windowStart).at(-1);
  if (!base) return [];
  const needsFrom = Math.min(base.txid, base.uploadsTxid) + 1;
  const removable = [
    ...catalog.snapshots.filter((s) => s.txid < base.txid).map((s) => s.key),
    ...catalog.segments.filter((s) => s.to < needsFrom).map((s) => s.key),
  ];
  for (const key of removable) await target.remove(key);
  return removable;
}
