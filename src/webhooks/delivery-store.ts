/**
 * Every SQL statement on `webhook-deliveries`. Claiming is one `UPDATE … RETURNING` (atomic across processes):
 * it moves a row to `sending`, counts the attempt, and takes a lease that expires after SENDING_LEASE_MS.
 * `attempts` doubles as a fencing token: an outcome is recorded only by the runner holding that attempt.
 */
import type { Database } from 'bun:sqlite';
import { DELIVERIES_TABLE, type DeliveryRow } from './deliveries-table.ts';
import { SENDING_LEASE_MS } from './retry-schedule.ts';

const T = `"${DELIVERIES_TABLE}"`;

export type NewDelivery = Pick<DeliveryRow, 'id' | 'event' | 'url' | 'target' | 'collection' | 'global' | 'docId' | 'body' | 'signature'>;

export function deliveriesTableExists(sqlite: Database): boolean {
  return Boolean(sqlite.query(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(DELIVERIES_TABLE));
}

/** A new delivery is pending; `dueAt` is when any runner may take it (this process sends it before). */
export function insertDelivery(sqlite: Database, delivery: NewDelivery, now: number, dueAt: number): void {
  sqlite.query(`INSERT INTO ${T} (id, event, url, target, collection, global, docId, body, signature, state, attempts, lastError, nextAttemptAt, leaseUntil, createdAt)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, NULL, ?, NULL, ?)`)
    .run(delivery.id, delivery.event, delivery.url, delivery.target, delivery.collection, delivery.global, delivery.docId,
      delivery.body, delivery.signature, dueAt, now);
}

const CLAIM = `UPDATE ${T} SET state = 'sending', attempts = attempts + 1, leaseUntil = ?1 + ${SENDING_LEASE_MS}`;

/**
 * Takes one pending row by id, whether due or not: this process's first attempt (`attempts` 0) or quick retry
 * (`attempts` n after attempt n). If anyone else attempted it meanwhile, the count differs and the claim fails.
 */
export function claimDelivery(sqlite: Database, id: string, attempts: number, now: number): DeliveryRow | null {
  return sqlite.query<DeliveryRow, [number, string, number]>(`${CLAIM} WHERE id = ?2 AND state = 'pending' AND attempts = ?3 RETURNING *`).get(now, id, attempts);
}

/** Takes the next row due by `dueBy`: pending and due, or sending with an expired lease (its process stopped mid-send). */
export function claimDueDelivery(sqlite: Database, dueBy: number, now: number): DeliveryRow | null {
  return sqlite.query<DeliveryRow, [number, number]>(`${CLAIM} WHERE id = (
      SELECT id FROM ${T}
      WHERE (state = 'pending' AND nextAttemptAt <= ?2) OR (state = 'sending' AND leaseUntil <= ?2)
      ORDER BY nextAttemptAt LIMIT 1
    ) RETURNING *`).get(now, dueBy);
}

export function removeDelivery(sqlite: Database, id: string): void {
  sqlite.query(`DELETE FROM ${T} WHERE id = ?`).run(id);
}

/** After a failed attempt that will be retried. Returns false when this runner no longer owns the attempt. */
export function rescheduleDelivery(sqlite: Database, row: DeliveryRow, error: string, nextAttemptAt: number): boolean {
  return sqlite.query(`UPDATE ${T} SET state = 'pending', lastError = ?, nextAttemptAt = ?, leaseUntil = NULL
    WHERE id = ? AND state = 'sending' AND attempts = ?`).run(error, nextAttemptAt, row.id, row.attempts).changes > 0;
}

export function failDelivery(sqlite: Database, row: DeliveryRow, error: string): boolean {
  return sqlite.query(`UPDATE ${T} SET state = 'failed', lastError = ?, nextAttemptAt = NULL, leaseUntil = NULL
    WHERE id = ? AND state = 'sending' AND attempts = ?`).run(error, row.id, row.attempts).changes > 0;
}

/** An attempt cut short by our own shutdown does not count: the row is due again at once. */
export function releaseDelivery(sqlite: Database, row: DeliveryRow, now: number): void {
  sqlite.query(`UPDATE ${T} SET state = 'pending', attempts = attempts - 1, nextAttemptAt = ?, leaseUntil = NULL
    WHERE id = ? AND state = 'sending' AND attempts = ?`).run(now, row.id, row.attempts);
}

export function findDelivery(sqlite: Database, id: string): DeliveryRow | null {
  return sqlite.query<DeliveryRow, [string]>(`SELECT * FROM ${T} WHERE id = ?`).get(id);
}

/** Newest first. */
export function listDeliveryRows(sqlite: Database, limit: number, offset: number): DeliveryRow[] {
  return sqlite.query<DeliveryRow, [number, number]>(`SELECT * FROM ${T} ORDER BY createdAt DESC, id DESC LIMIT ? OFFSET ?`).all(limit, offset);
}

export function countDeliveries(sqlite: Database, state?: DeliveryRow['state']): number {
  const row = state
    ? sqlite.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${T} WHERE state = ?`).get(state)
    : sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${T}`).get();
  return row?.n ?? 0;
}

/** A manual retry starts the ladder again: pending, no attempts counted, due now. */
export function requeueDelivery(sqlite: Database, id: string, now: number): DeliveryRow | null {
  return sqlite.query<DeliveryRow, [number, string]>(`UPDATE ${T} SET state = 'pending', attempts = 0, nextAttemptAt = ?1, leaseUntil = NULL
    WHERE id = ?2 AND state IN ('failed', 'pending') RETURNING *`).get(now, id);
}
