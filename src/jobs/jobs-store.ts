/**
 * Scheduled jobs in `_cms_jobs`: pending → running (claimed, leased until `lockedUntil`) → done | failed,
 * or pending → cancelled. `at` and `lockedUntil` are epoch ms from cms.clock. Every query that looks for
 * work goes through the (state, at) index, so pending jobs far in the future cost nothing.
 */
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { jobs } from '../db/system-schema.ts';
import type { CMS } from '../cms.ts';
import type { VersionOwner } from '../versions/store.ts';

export type JobRow = typeof jobs.$inferSelect;
export type JobAction = 'publish' | 'unpublish';
export const JOB_ACTIONS: readonly JobAction[] = ['publish', 'unpublish'];

/** A claimed job is its runner's for this long; a runner that died mid-job leaves it to the next run after that. */
export const JOB_LEASE_MS = 5 * 60_000;
/** Finished jobs are kept this long for inspection, then purged. */
export const FINISHED_JOB_RETENTION_MS = 30 * 24 * 3600_000;

const ownedBy = (owner: VersionOwner) =>
  and(eq(jobs.kind, owner.entity.kind), eq(jobs.slug, owner.entity.slug), eq(jobs.parent, owner.parent));

export function insertJob(cms: CMS, owner: VersionOwner, action: JobAction, at: number, now: string): JobRow {
  return cms.db.insert(jobs).values({
    action, kind: owner.entity.kind, slug: owner.entity.slug, parent: owner.parent, at, state: 'pending', createdAt: now,
  }).returning().get();
}

/** Pending jobs of one document, soonest first. */
export function pendingJobsOf(cms: CMS, owner: VersionOwner): JobRow[] {
  return cms.db.select().from(jobs).where(and(ownedBy(owner), eq(jobs.state, 'pending'))).orderBy(asc(jobs.at), asc(jobs.id)).all();
}

/** A pending job of this document; another document's job is not found. */
export function findPendingJob(cms: CMS, owner: VersionOwner, id: number): JobRow | undefined {
  return cms.db.select().from(jobs).where(and(ownedBy(owner), eq(jobs.id, id), eq(jobs.state, 'pending'))).get();
}

/** Cancels one pending job; false when it was no longer pending (a runner claimed it meanwhile). */
export function cancelJob(cms: CMS, id: number, now: string): boolean {
  return cms.db.update(jobs).set({ state: 'cancelled', finishedAt: now }).where(and(eq(jobs.id, id), eq(jobs.state, 'pending'))).returning({ id: jobs.id }).all().length > 0;
}

export function cancelJobsOf(cms: CMS, owner: VersionOwner, now: string): void {
  cms.db.update(jobs).set({ state: 'cancelled', finishedAt: now }).where(and(ownedBy(owner), eq(jobs.state, 'pending'))).run();
}

/**
 * Claims the next due job in one atomic `UPDATE … RETURNING`: of several runners sharing the database
 * (threads or processes), exactly one gets each job.
 */
export function claimDueJob(cms: CMS, now: number): JobRow | undefined {
  return claimStatement(cms, now).get();
}

/**
 * `id = (scalar subquery)`, not `id IN (…)`: with `IN` next to `state = 'pending'`, SQLite (without
 * ANALYZE statistics) walks every pending row of the index; with `=` it reads the one due row by rowid.
 */
export function claimStatement(cms: CMS, now: number) {
  const next = cms.db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.state, 'pending'), lte(jobs.at, now)))
    .orderBy(asc(jobs.at), asc(jobs.id)).limit(1);
  return cms.db.update(jobs).set({ state: 'running', lockedUntil: now + JOB_LEASE_MS })
    .where(and(eq(jobs.id, sql`(${next})`), eq(jobs.state, 'pending'))).returning();
}

/** Jobs whose runner stopped mid-run (lease expired) become pending again. */
export function releaseExpiredLeases(cms: CMS, now: number): void {
  releaseStatement(cms, now).run();
}

export function releaseStatement(cms: CMS, now: number) {
  return cms.db.update(jobs).set({ state: 'pending', lockedUntil: null }).where(and(eq(jobs.state, 'running'), lte(jobs.lockedUntil, now)));
}

export function finishJob(cms: CMS, id: number, outcome: { state: 'done' } | { state: 'failed'; error: string }, now: string): void {
  cms.db.update(jobs).set({ state: outcome.state, error: outcome.state === 'failed' ? outcome.error : null, lockedUntil: null, finishedAt: now })
    .where(eq(jobs.id, id)).run();
}

export function purgeFinishedJobs(cms: CMS, olderThan: number): void {
  purgeStatement(cms, olderThan).run();
}

export function purgeStatement(cms: CMS, olderThan: number) {
  return cms.db.delete(jobs).where(and(inArray(jobs.state, ['done', 'failed', 'cancelled']), lte(jobs.at, olderThan)));
}
