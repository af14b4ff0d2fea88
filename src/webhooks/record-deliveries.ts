/**
 * The change-event listener: one `webhook-deliveries` row per matching target, written inside the change's
 * own transaction (a committed change always has its deliveries, a rolled-back one has none), and the
 * first attempt started by this process once the transaction has committed.
 */
import type { CMS } from '../cms.ts';
import type { ChangeListener } from '../events/change-events.ts';
import { insertDelivery } from './delivery-store.ts';
import { matchingTargets } from './match-targets.ts';
import { SENDING_LEASE_MS } from './retry-schedule.ts';
import { signBody, webhookBody } from './webhook-body.ts';

/** This process's sender: whether it takes more work now, and handing it a committed delivery. */
export type FreshSender = { hasRoom(): boolean; start(id: string): void };

export function recordDeliveries(cms: CMS, sender: FreshSender): ChangeListener {
  return async (event, scope) => {
    const targets = matchingTargets(cms.config.webhooks, event);
    if (targets.length === 0) return;
    const body = webhookBody(cms.config, event);
    const now = cms.clock.now();
    for (const { index, target } of targets) {
      const id = Bun.randomUUIDv7();
      // The first attempt and the quick retries belong to this process, so the job loop must not take the row
      // first: it becomes due for other runners only after the same 5 minutes as an interrupted send. When
      // this process has no room, the row is due at once and the job loop sends it.
      const mine = sender.hasRoom();
      await insertDelivery(
        scope.tx,
        {
          id,
          event: event.type,
          url: target.url,
          target: index,
          collection: event.collection ?? null,
          global: event.global ?? null,
          docId: event.collection !== undefined ? (event.id ?? null) : null,
          body,
          signature: target.secret ? signBody(target.secret, body) : null,
        },
        now,
        mine ? now + SENDING_LEASE_MS : now,
      );
      if (mine) scope.afterCommit(() => sender.start(id));
    }
  };
}
