/**
 * Scheduling (docs/drafts-and-versions.md): a document or global may have several pending `publish` / `unpublish` jobs,
 * each at a future time. The job runner (src/jobs) performs them through the same operations as REST.
 */
import { badRequest, notFound } from '../errors.ts';
import { isoNow } from '../clock.ts';
import {
  JOB_ACTIONS,
  cancelJob,
  findPendingJob,
  insertJob,
  pendingJobsOf,
  type JobAction,
  type JobRow,
} from '../versions/jobs-store.ts';
import { eventSubject } from '../versions/live-row.ts';
import { subjectOf, writeAuditEntry } from '../audit/write-entry.ts';
import { presentJob } from './steps/present-job.ts';
import { loadForUpdate, type DocumentRef } from './steps/document-target.ts';
import { parseId } from './steps/entities.ts';
import { originOf, type OperationContext } from '../operation-context.ts';

export type ScheduleArgs = DocumentRef & { action: unknown; at: unknown };
export type CancelScheduleArgs = DocumentRef & { job: number | string };

export async function scheduleAction(ctx: OperationContext, args: ScheduleArgs): Promise<Record<string, unknown>> {
  const { owner } = await loadForUpdate(ctx, args, { drafts: true });
  if (!JOB_ACTIONS.includes(args.action as JobAction))
    throw badRequest(`"action" must be one of: ${JOB_ACTIONS.join(', ')}.`, 'action');
  const at = parseTime(args.at);
  if (at <= ctx.cms.clock.now()) throw badRequest('"at" must be in the future.', 'at');
  const { cms } = ctx;
  const job = await cms.store.transaction(async (tx) => {
    const row = await insertJob(tx, owner, args.action as JobAction, at, isoNow(cms.clock));
    await writeAuditEntry(tx, cms, {
      action: 'schedule',
      ...subjectOf(eventSubject(owner)),
      origin: originOf(ctx),
      changes: { schedule: { from: null, to: scheduled(row) } },
    });
    return row;
  });
  return presentJob(job);
}

export async function listScheduled(
  ctx: OperationContext,
  args: DocumentRef,
): Promise<{ docs: Record<string, unknown>[] }> {
  const { owner } = await loadForUpdate(ctx, args, { drafts: true });
  return { docs: (await pendingJobsOf(ctx.cms.store, owner)).map(presentJob) };
}

/** Cancels a pending job of this document; another document's job, or one already run, is a 404. */
export async function cancelScheduled(
  ctx: OperationContext,
  args: CancelScheduleArgs,
): Promise<Record<string, unknown>> {
  const { owner } = await loadForUpdate(ctx, args, { drafts: true });
  let jobId: number;
  try {
    jobId = parseId(args.job);
  } catch {
    throw notFound('Scheduled job not found.');
  }
  const { cms } = ctx;
  const job = await findPendingJob(cms.store, owner, jobId);
  const cancelled =
    job &&
    (await cms.store.transaction(async (tx) => {
      if (!(await cancelJob(tx, job.id, isoNow(cms.clock)))) return false;
      await writeAuditEntry(tx, cms, {
        action: 'unschedule',
        ...subjectOf(eventSubject(owner)),
        origin: originOf(ctx),
        changes: { schedule: { from: scheduled(job), to: null } },
      });
      return true;
    }));
  if (!job || !cancelled) throw notFound('Scheduled job not found.');
  return presentJob({ ...job, state: 'cancelled' });
}

const scheduled = (job: JobRow) => ({ job: job.id, action: job.action, at: new Date(Number(job.at)).toISOString() });

/** An ISO 8601 date-time (a date alone means midnight UTC). */
function parseTime(value: unknown): number {
  const ms = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw badRequest('"at" must be an ISO 8601 time.', 'at');
  return ms;
}
