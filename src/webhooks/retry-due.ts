/**
 * The job loop's part of webhook delivery: sends every stored delivery that is due — pending rows whose
 * `nextAttemptAt` has come, and `sending` rows whose lease expired because their process stopped mid-send.
 * Called by the job runner (`/jobs/run`, `runJobs()`, the minute loop) and by `retryWebhooks()`.
 */
import type { CMS } from '../cms.ts';
import { attemptDelivery } from './attempt-delivery.ts';
import { claimDueDelivery, countDeliveries, deliveriesTableExists } from './delivery-store.ts';
import { MAX_CONCURRENT_SENDS, track, webhookRuntime } from './webhook-runtime.ts';

/** `sent`: delivered in this run; `failed`: given up in this run; `pending`: stored deliveries still waiting for an attempt. */
export type RetryCounts = { sent: number; failed: number; pending: number };

export async function retryDueWebhooks(cms: CMS): Promise<RetryCounts> {
  if (cms.config.webhooks.length === 0 || !(await deliveriesTableExists(cms.store)))
    return { sent: 0, failed: 0, pending: 0 };
  const runtime = webhookRuntime(cms);
  // Due means due when the run started: a row retried in this run is never taken twice by it.
  const dueBy = cms.clock.now();
  const counts = { sent: 0, failed: 0 };
  const worker = async () => {
    for (;;) {
      const outcome = await runtime.limiter.run(async () => {
        if (runtime.closed) return null;
        const row = await claimDueDelivery(cms.store, dueBy, cms.clock.now());
        return row ? attemptDelivery(runtime, row) : null;
      });
      if (!outcome) return;
      if (outcome.result === 'sent') counts.sent++;
      if (outcome.result === 'failed') counts.failed++;
    }
  };
  const run = async (): Promise<RetryCounts> => {
    await Promise.all(Array.from({ length: MAX_CONCURRENT_SENDS }, worker));
    return { ...counts, pending: await countDeliveries(cms.store, 'pending') };
  };
  return track(runtime.runs, run());
}
