/**
 * Runs every job that is due by cms.clock, one claim at a time, so runners in several processes share
 * the work and each job runs once. A failing job is recorded with its error and does not stop the others.
 */
import type { CMS } from '../cms.ts';
import { isoNow } from '../clock.ts';
import {
  FINISHED_JOB_RETENTION_MS,
  claimDueJob,
  finishJob,
  purgeFinishedJobs,
  releaseExpiredLeases,
} from '../versions/jobs-store.ts';
import { performJob } from './perform-job.ts';

/** `ran`: jobs done; `failed`: jobs that failed (kept with their error). */
export async function runDueJobs(cms: CMS): Promise<{ ran: number; failed: number }> {
  const counts = { ran: 0, failed: 0 };
  await releaseExpiredLeases(cms.store, cms.clock.now());
  for (
    let job = await claimDueJob(cms.store, cms.clock.now());
    job;
    job = await claimDueJob(cms.store, cms.clock.now())
  ) {
    try {
      await performJob(cms, job);
      await finishJob(cms.store, job.id, { state: 'done' }, isoNow(cms.clock));
      counts.ran++;
    } catch (error) {
      await finishJob(
        cms.store,
        job.id,
        { state: 'failed', error: error instanceof Error ? error.message : String(error) },
        isoNow(cms.clock),
      );
      counts.failed++;
    }
  }
  await purgeFinishedJobs(cms.store, cms.clock.now() - FINISHED_JOB_RETENTION_MS);
  return counts;
}
