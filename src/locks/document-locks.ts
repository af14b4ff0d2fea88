/**
 * Document locks (Payload's "locked documents"): one row per document or global someone has open in the
 * admin, held by heartbeats and lapsing `LOCK_LIFETIME_MS` after the last one. Times are epoch ms from
 * the injectable clock. The token names the holder's editing session; its saves carry it back.
 */
import type { Queryable } from '../db/store.ts';

export const LOCK_LIFETIME_MS = 5 * 60 * 1000;

export type LockRow = { target: string; token: string; user: number | null; lockedAt: number; heartbeatAt: number };

export const lockTarget = (ref: { collection: string; id: number } | { global: string }) =>
  'global' in ref ? `global:${ref.global}` : `collection:${ref.collection}:${ref.id}`;

/** The lock on a target while it holds (null when there is none or it lapsed). */
export async function liveLock(db: Queryable, target: string, now: number): Promise<LockRow | null> {
  const row = await db.get<LockRow>('SELECT * FROM "_cms_locks" WHERE "target" = ?', [target]);
  return row && row.heartbeatAt + LOCK_LIFETIME_MS > now ? row : null;
}

/** Takes (or renews, with the same token) the lock; `lockedAt` stays while the same token holds it. */
export async function writeLock(
  db: Queryable,
  target: string,
  token: string,
  user: number | null,
  now: number,
): Promise<LockRow> {
  return (await db.get<LockRow>(
    `INSERT INTO "_cms_locks" ("target", "token", "user", "lockedAt", "heartbeatAt") VALUES (?, ?, ?, ?, ?)
     ON CONFLICT ("target") DO UPDATE SET "lockedAt" = CASE WHEN "_cms_locks"."token" = excluded."token" THEN "_cms_locks"."lockedAt" ELSE excluded."lockedAt" END,
       "token" = excluded."token", "user" = excluded."user", "heartbeatAt" = excluded."heartbeatAt"
     RETURNING *`,
    [target, token, user, now, now],
  ))!;
}

export async function deleteLock(db: Queryable, target: string): Promise<void> {
  await db.run('DELETE FROM "_cms_locks" WHERE "target" = ?', [target]);
}
