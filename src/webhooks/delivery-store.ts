/**
 * Every SQL statement on `webhook-deliveries`. Claiming is one `UPDATE … RETURNING` (atomic across processes):
 * it moves a row to `sending`, counts the attempt, and takes a lease that expires after SENDING_LEASE_MS.
 * `attempts` doubles as a fencing token: an outcome is recorded only by the runner holding that attempt.
 * `db` is the store, or the `tx` of the change a new delivery belongs to.
 */
import type { Queryable } from '../db/store.ts';
import { DELIVERIES_TABLE, type DeliveryRow } from '../db/deliveries-table.ts';
import { SENDING_LEASE_MS } from './retry-schedule.ts';

const T = `"${DELIVERIES_TABLE}"`;

export type NewDelivery = Pick<
  DeliveryRow,
  'id' | 'event' | 'url' | 'target' | 'collection' | 'global' | 'docId' | 'body' | 'signature'
>;

export async function deliveriesTableExists(db: Queryable): Promise<boolean> {
  const exists = db.dialect.tableExists(DELIVERIES_TABLE);
  return Boolean(await db.get(exists.sql, exists.params));
}

/** A new delivery is pending; `dueAt` is when any runner may take it (this process sends it before). */
export async function insertDelivery(db: Queryable, delivery: NewDelivery, now: number, dueAt: number): Promise<void> {
  await db.run(
    `INSERT INTO ${T} ("id", "event", "url", "target", "collection", "global", "docId", "body", "signature", "state", "attempts", "lastError", "nextAttemptAt", "leaseUntil", "createdAt")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, NULL, ?, NULL, ?)`,
    [
      delivery.id,
      delivery.event,
      delivery.url,
      delivery.target,
      delivery.collection,
      delivery.global,
      delivery.docId,
      delivery.body,
      delivery.signature,
      dueAt,
      now,
    ],
  );
}

const CLAIM = `UPDATE ${T} SET "state" = 'sending', "attempts" = "attempts" + 1, "leaseUntil" = ?1 + ${SENDING_LEASE_MS}`;

/**
 * Takes one pending row by id, whether due or not: this process's first attempt (`attempts` 0) or quick retry
 * (`attempts` n after attempt n). If anyone else attempted it meanwhile, the count differs and the claim fails.
 */
export function claimDelivery(db: Queryable, id: string, attempts: number, now: number): Promise<DeliveryRow | null> {
  return db.get<DeliveryRow>(`${CLAIM} WHERE "id" = ?2 AND "state" = 'pending' AND "attempts" = ?3 RETURNING *`, [
    now,
    id,
    attempts,
  ]);
}

/** Takes the next row due by `dueBy`: pending and due, or sending with an expired lease (its process stopped mid-send). */
export function claimDueDelivery(db: Queryable, dueBy: number, now: number): Promise<DeliveryRow | null> {
  return db.get<DeliveryRow>(
    `${CLAIM} WHERE "id" = (
      SELECT "id" FROM ${T}
      WHERE ("state" = 'pending' AND "nextAttemptAt" <= ?2) OR ("state" = 'sending' AND "leaseUntil" <= ?2)
      ORDER BY "nextAttemptAt" LIMIT 1${db.dialect.skipLocked}
    ) RETURNING *`,
    [now, dueBy],
  );
}

export async function removeDelivery(db: Queryable, id: string): Promise<void> {
  await db.run(`DELETE FROM ${T} WHERE "id" = ?`, [id]);
}

/** After a failed attempt that will be retried. Returns false when this runner no longer owns the attempt. */
export async function rescheduleDelivery(
  db: Queryable,
  row: DeliveryRow,
  error: string,
  nextAttemptAt: number,
): Promise<boolean> {
  return (
    (
      await db.run(
        `UPDATE ${T} SET "state" = 'pending', "lastError" = ?, "nextAttemptAt" = ?, "leaseUntil" = NULL
    WHERE "id" = ? AND "state" = 'sending' AND "attempts" = ?`,
        [error, nextAttemptAt, row.id, row.attempts],
      )
    ).changes > 0
  );
}

export async function failDelivery(db: Queryable, row: DeliveryRow, error: string): Promise<boolean> {
  return (
    (
      await db.run(
        `UPDATE ${T} SET "state" = 'failed', "lastError" = ?, "nextAttemptAt" = NULL, "leaseUntil" = NULL
    WHERE "id" = ? AND "state" = 'sending' AND "attempts" = ?`,
        [error, row.id, row.attempts],
      )
    ).changes > 0
  );
}

/** An attempt cut short by our own shutdown does not count: the row is due again at once. */
export async function releaseDelivery(db: Queryable, row: DeliveryRow, now: number): Promise<void> {
  await db.run(
    `UPDATE ${T} SET "state" = 'pending', "attempts" = "attempts" - 1, "nextAttemptAt" = ?, "leaseUntil" = NULL
    WHERE "id" = ? AND "state" = 'sending' AND "attempts" = ?`,
    [now, row.id, row.attempts],
  );
}

export function findDelivery(db: Queryable, id: string): Promise<DeliveryRow | null> {
  return db.get<DeliveryRow>(`SELECT * FROM ${T} WHERE "id" = ?`, [id]);
}

/** Newest first. */
export function listDeliveryRows(
  db: Queryable,
  limit: number,
  offset: number,
  state?: DeliveryRow['state'],
): Promise<DeliveryRow[]> {
  return state
    ? db.all<DeliveryRow>(
        `SELECT * FROM ${T} WHERE "state" = ? ORDER BY "createdAt" DESC, "id" DESC LIMIT ? OFFSET ?`,
        [state, limit, offset],
      )
    : db.all<DeliveryRow>(`SELECT * FROM ${T} ORDER BY "createdAt" DESC, "id" DESC LIMIT ? OFFSET ?`, [limit, offset]);
}

export async function countDeliveries(db: Queryable, state?: DeliveryRow['state']): Promise<number> {
  const row = state
    ? await db.get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS "n" FROM ${T} WHERE "state" = ?`, [state])
    : await db.get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS "n" FROM ${T}`);
  return row?.n ?? 0;
}

/** Deliveries not done yet: pending, or being sent (through the state index). */
export async function countBacklog(db: Queryable): Promise<number> {
  const row = await db.get<{ n: number }>(
    `SELECT CAST(count(*) AS INTEGER) AS "n" FROM ${T} WHERE "state" IN ('pending', 'sending')`,
  );
  return row?.n ?? 0;
}

/** A manual retry starts the ladder again: pending, no attempts counted, due now. */
export function requeueDelivery(db: Queryable, id: string, now: number): Promise<DeliveryRow | null> {
  return db.get<DeliveryRow>(
    `UPDATE ${T} SET "state" = 'pending', "attempts" = 0, "nextAttemptAt" = ?1, "leaseUntil" = NULL
    WHERE "id" = ?2 AND "state" IN ('failed', 'pending') RETURNING *`,
    [now, id],
  );
}
