/**
 * Starts the webhook machinery of an instance (called by `createCMS` when `webhooks` is configured): the
 * change-event listener, this process's sends (first attempt, then the quick retries after 1 s and 5 s),
 * and the closer that stops them. Later retries are stored in the table and taken by `retryDueWebhooks`.
 */
import type { CMS } from '../cms.ts';
import { attemptDelivery } from './attempt-delivery.ts';
import { claimDelivery, deliveriesTableExists } from './delivery-store.ts';
import { DELIVERIES_TABLE } from '../db/deliveries-table.ts';
import { recordDeliveries } from './record-deliveries.ts';
import { webhookTiming } from './retry-schedule.ts';
import {
  MAX_QUEUED_SENDS,
  stopWebhookRuntime,
  track,
  wait,
  webhookRuntime,
  type WebhookRuntime,
} from './webhook-runtime.ts';

export async function startWebhooks(cms: CMS): Promise<void> {
  if (!(await deliveriesTableExists(cms.store))) {
    // Only when start-up migrations were skipped (the migrate commands): writing would fail without the table.
    cms.log.warn(
      `webhooks are configured but the "${DELIVERIES_TABLE}" table does not exist yet: run \`cms migrate\`; no deliveries are recorded until then`,
    );
    return;
  }
  const runtime = webhookRuntime(cms);
  const sender = { hasRoom: () => hasRoom(runtime), start: (id: string) => startDelivery(runtime, id) };
  const stopListening = cms.events.on(recordDeliveries(cms, sender));
  cms.closers.push(async () => {
    stopListening();
    await stopWebhookRuntime(runtime);
  });
}

/** Whether this process takes on another delivery (bounded memory); if not, the job loop sends it. */
export function hasRoom(runtime: WebhookRuntime): boolean {
  return !runtime.closed && runtime.chains.size < MAX_QUEUED_SENDS;
}

/** Sends a stored pending delivery from this process, in the background, with the quick retries. */
export function startDelivery(runtime: WebhookRuntime, id: string): void {
  track(runtime.chains, sendWithQuickRetries(runtime, id)).catch((error) =>
    runtime.cms.log.error('webhook delivery failed:', error),
  );
}

async function sendWithQuickRetries(runtime: WebhookRuntime, id: string): Promise<void> {
  // Tracked at once (so flushWebhooks sees it) but started on the next turn: the write answers first.
  await new Promise((resolve) => setImmediate(resolve));
  for (let attempts = 0; ; attempts++) {
    const attempt = await runtime.limiter.run(async () => {
      if (runtime.closed) return null;
      // Null when another runner took the row meanwhile (the job loop, another process) or it is gone.
      const row = await claimDelivery(runtime.cms.store, id, attempts, runtime.cms.clock.now());
      return row ? await attemptDelivery(runtime, row) : null;
    });
    if (!attempt || attempt.result !== 'retry' || !attempt.quick) return;
    const delay = webhookTiming.quickRetryDelays[attempts];
    if (delay === undefined || !(await wait(runtime, delay))) return;
  }
}

/** Waits until this process's first attempts and quick retries are done (docs/webhooks.md). */
export async function flushWebhooks(cms: CMS): Promise<void> {
  const runtime = webhookRuntime(cms);
  while (runtime.chains.size) await Promise.allSettled([...runtime.chains]);
}
