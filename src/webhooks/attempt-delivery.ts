/** One attempt of a claimed delivery, and what it leaves in the table: removed, pending again, or failed. */
import type { CMS } from '../cms.ts';
import { countWebhookAttempt } from '../metrics/registry.ts';
import type { WebhookConfig } from '../config/types.ts';
import type { DeliveryRow } from '../db/deliveries-table.ts';
import { failDelivery, releaseDelivery, removeDelivery, rescheduleDelivery } from './delivery-store.ts';
import { nextRetry } from './retry-schedule.ts';
import { sendWebhookRequest } from './send-request.ts';
import { targetOrigin } from './target-origin.ts';
import type { WebhookRuntime } from './webhook-runtime.ts';

export type AttemptResult =
  | { result: 'sent' }
  | { result: 'failed' }
  | { result: 'retry'; quick: boolean }
  /** Cut short by shutdown; the row is pending and due again. */
  | { result: 'interrupted' };

export async function attemptDelivery(runtime: WebhookRuntime, row: DeliveryRow): Promise<AttemptResult> {
  const outcome = await attemptOnce(runtime, row);
  countWebhookAttempt(runtime.cms, outcome.result);
  return outcome;
}

async function attemptOnce(runtime: WebhookRuntime, row: DeliveryRow): Promise<AttemptResult> {
  const { cms } = runtime;
  const target = configuredTarget(cms, row);
  if (!target) {
    // A target taken out of the config gets nothing more (its headers may have held credentials we no longer have).
    await failDelivery(cms.store, row, 'the target is no longer in the config');
    return { result: 'failed' };
  }
  const controller = new AbortController();
  runtime.sends.add(controller);
  const request = {
    url: row.url,
    deliveryId: row.id,
    event: row.event,
    body: row.body,
    signature: row.signature,
    headers: target.headers,
  };
  const outcome = await sendWebhookRequest(request, controller.signal).finally(() => runtime.sends.delete(controller));
  const now = cms.clock.now();
  if (outcome.ok) {
    await removeDelivery(cms.store, row.id);
    return { result: 'sent' };
  }
  if (controller.signal.aborted) {
    await releaseDelivery(cms.store, row, now);
    return { result: 'interrupted' };
  }
  const step = outcome.retry ? nextRetry(row.attempts) : null;
  if (!step) {
    await failDelivery(cms.store, row, outcome.error);
    const why = outcome.retry ? `after ${row.attempts} attempts` : 'not retried';
    // The origin only: a target's path or query often holds its secret (target-origin.ts).
    cms.log.warn(`webhook ${row.id} (${row.event}) to ${targetOrigin(row.url)} failed: ${outcome.error}; ${why}`);
    return { result: 'failed' };
  }
  await rescheduleDelivery(cms.store, row, outcome.error, now + step.delay);
  return { result: 'retry', quick: step.quick };
}

/** Headers come from the config, never from the table: the target the row was made for, else one with the same url. */
function configuredTarget(cms: CMS, row: DeliveryRow): WebhookConfig | undefined {
  const targets = cms.config.webhooks;
  return targets[row.target]?.url === row.url ? targets[row.target] : targets.find((t) => t.url === row.url);
}
