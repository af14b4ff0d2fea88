/** One run of the job runner (docs/webhooks.md): due scheduled jobs, then due webhook retries, then audit-log retention, then expired trash. Used by the loop, `/jobs/run` and the Local API. */
import type { CMS } from '../cms.ts';
import { countJobRun } from '../metrics/registry.ts';
import { retryDueWebhooks } from '../webhooks/retry-due.ts';
import { runDueJobs } from './run-due-jobs.ts';
import { pruneChangeLog } from '../realtime/change-log.ts';
import { removeOldAuditEntries } from '../audit/remove-old-entries.ts';
import { emptyExpiredTrash } from '../operations/empty-expired-trash.ts';

export type JobRunCounts = {
  jobs: { ran: number; failed: number };
  webhooks: { sent: number; failed: number; pending: number };
};

export async function runJobs(cms: CMS): Promise<JobRunCounts> {
  try {
    const jobs = await runDueJobs(cms);
    const webhooks = await retryDueWebhooks(cms);
    await pruneChangeLog(cms);
    await removeOldAuditEntries(cms);
    await emptyExpiredTrash(cms);
    countJobRun(cms, { jobs });
    return { jobs, webhooks };
  } catch (error) {
    countJobRun(cms, { error });
    throw error;
  }
}
