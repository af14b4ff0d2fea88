/**
 * Scheduled jobs in `_cms_jobs`: pending → running (claimed, leased until `lockedUntil`) → done | failed,
 * or pending → cancelled. `at` and `lockedUntil` are epoch ms from cms.clock. Every query that looks for
 * work goes through the (state, at) index, so pending jobs far in the future cost nothing.
 * `db` is the store, or the `tx` of the write the statement belongs to.
 */
import type { jobs } from '../db/system-schema.ts';
import { andParts, type Dialect, type Queryable, type SQLPart } from '../db/store.ts';
import type { VersionOwner } from './store.ts';

export type JobRow = typeof jobs.$inferSelect;
export type JobAction = 'publish' | 'unpublish';
export const JOB_ACTIONS: readonly JobAction[] = ['publish', 'unpublish'];

/** A claimed job is its runner's for this long; a runner that died mid-job leaves it to the next run after that. */
export const JOB_LEASE_MS = 5 * 60_000;
/** Finished jobs are kept this long for inspection, then purged. */
export const FINISHED_JOB_RETENTION_MS = 30 * 24 * 3600_000;

const OWNED_BY = `"kind" = ? AND "slug" = ? AND "parent" = ?`;
const owned = (owner: VersionOwner) => [owner.entity.kind, owner.entity.slug, owner.parent];

export async function insertJob(
  db: Queryable,
  owner: VersionOwner,
  action: JobAction,
  at: number,
  now: string,
): Promise<JobRow> {
  return (await db.get<JobRow>(
    `INSERT INTO "_cms_jobs" ("action", "kind", "slug", "parent", "at", "state", "createdAt")
    VALUES (?, ?, ?, ?, ?, 'pending', ?) RETURNING *`,
    [action, ...owned(owner), at, now],
  ))!;
}

/** Pending jobs of one document, soonest first. */
export function pendingJobsOf(db: Queryable, owner: VersionOwner): Promise<JobRow[]> {
  return db.all<JobRow>(
    `SELECT * FROM "_cms_jobs" WHERE ${OWNED_BY} AND "state" = 'pending' ORDER BY "at" ASC, "id" ASC`,
    owned(owner),
  );
}

/** A pending job of this document; another document's job is not found. */
export async function findPendingJob(db: Queryable, owner: VersionOwner, id: number): Promise<JobRow | undefined> {
  return (
    (await db.get<JobRow>(`SELECT * FROM "_cms_jobs" WHERE ${OWNED_BY} AND "id" = ? AND "state" = 'pending'`, [
      ...owned(owner),
      id,
    ])) ?? undefined
  );
}

/** Cancels one pending job; false when it was no longer pending (a runner claimed it meanwhile). */
export async function cancelJob(db: Queryable, id: number, now: string): Promise<boolean> {
  return (
    (
      await db.run(
        `UPDATE "_cms_jobs" SET "state" = 'cancelled', "finishedAt" = ? WHERE "id" = ? AND "state" = 'pending'`,
        [now, id],
      )
    ).changes > 0
  );
}

export async function cancelJobsOf(db: Queryable, owner: VersionOwner, now: string): Promise<void> {
  await db.run(
    `UPDATE "_cms_jobs" SET "state" = 'cancelled', "finishedAt" = ? WHERE ${OWNED_BY} AND "state" = 'pending'`,
    [now, ...owned(owner)],
  );
}

/**
 * Claims the next due job in one atomic `UPDATE … RETURNING`: of several runners sharing the database
 * (threads or processes), exactly one gets each job.
 */
export async function claimDueJob(db: Queryable, now: number): Promise<JobRow | undefined> {
  const claim = claimStatement(db.dialect, now);
  return (await db.get<JobRow>(claim.sql, claim.params)) ?? undefined;
}

/**
 * `id = (scalar subquery)`, not `id IN (…)`: with `IN` next to `state = 'pending'`, SQLite (without
 * ANALYZE statistics) walks every pending row of the index; with `=` it reads the one due row by rowid.
 * PostgreSQL's runners skip a row another one has locked instead of waiting for it.
 */
export function claimStatement(dialect: Dialect, now: number): SQLPart {
  return {
    sql: `UPDATE "_cms_jobs" SET "state" = 'running', "lockedUntil" = ? WHERE "id" = (
      SELECT "id" FROM "_cms_jobs" WHERE "state" = 'pending' AND "at" <= ? ORDER BY "at" ASC, "id" ASC LIMIT 1${dialect.skipLocked}
    ) AND "state" = 'pending' RETURNING *`,
    params: [now + JOB_LEASE_MS, now],
  };
}

/** Jobs whose runner stopped mid-run (lease expired) become pending again. */
export async function releaseExpiredLeases(db: Queryable, now: number): Promise<void> {
  const release = releaseStatement(db.dialect, now);
  await db.run(release.sql, release.params);
}

export function releaseStatement(_dialect: Dialect, now: number): SQLPart {
  return {
    sql: `UPDATE "_cms_jobs" SET "state" = 'pending', "lockedUntil" = NULL WHERE "state" = 'running' AND "lockedUntil" <= ?`,
    params: [now],
  };
}

export async function finishJob(
  db: Queryable,
  id: number,
  outcome: { state: 'done' } | { state: 'failed'; error: string },
  now: string,
): Promise<void> {
  await db.run(
    `UPDATE "_cms_jobs" SET "state" = ?, "error" = ?, "lockedUntil" = NULL, "finishedAt" = ? WHERE "id" = ?`,
    [outcome.state, outcome.state === 'failed' ? outcome.error : null, now, id],
  );
}

export async function purgeFinishedJobs(db: Queryable, olderThan: number): Promise<void> {
  const purge = purgeStatement(db.dialect, olderThan);
  await db.run(purge.sql, purge.params);
}

export function purgeStatement(_dialect: Dialect, olderThan: number): SQLPart {
  return {
    sql: `DELETE FROM "_cms_jobs" WHERE "state" IN ('done', 'failed', 'cancelled') AND "at" <= ?`,
    params: [olderThan],
  };
}

/** Which pending jobs across the site: all, one collection or global, or some documents of one collection. */
export type PendingFilter = { kind?: 'collection' | 'global'; slug?: string; parents?: number[] };

function pendingWhere(dialect: Dialect, filter: PendingFilter): SQLPart {
  const parts: SQLPart[] = [{ sql: `"state" = 'pending'`, params: [] }];
  if (filter.kind && filter.slug) parts.push({ sql: `"kind" = ? AND "slug" = ?`, params: [filter.kind, filter.slug] });
  if (filter.parents) parts.push(dialect.inList('"parent"', filter.parents));
  return andParts(parts)!;
}

/** Scheduled actions still waiting (the admin's `GET /health` and `GET /jobs/scheduled`). */
export async function countPendingJobs(db: Queryable, filter: PendingFilter = {}): Promise<number> {
  const where = pendingWhere(db.dialect, filter);
  return (
    (
      await db.get<{ n: number }>(
        `SELECT CAST(count(*) AS INTEGER) AS "n" FROM "_cms_jobs" WHERE ${where.sql}`,
        where.params,
      )
    )?.n ?? 0
  );
}

/** Pending jobs across the site, soonest first (through the (state, at) index). */
export function listPendingJobs(
  db: Queryable,
  filter: PendingFilter,
  limit: number,
  offset: number,
): Promise<JobRow[]> {
  const where = pendingWhere(db.dialect, filter);
  return db.all<JobRow>(`SELECT * FROM "_cms_jobs" WHERE ${where.sql} ORDER BY "at" ASC, "id" ASC LIMIT ? OFFSET ?`, [
    ...where.params,
    limit,
    offset,
  ]);
}
