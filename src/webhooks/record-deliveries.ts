/**
 * The change-event listener: one `webhook-deliveries` row per matching target, written inside the change's
 * own transaction (a committed change always has its deliveries, a rolled-back one has none), and the
 * first attempt started once the transaction has committed.
 */
import type { CMS } from '../cms.ts';
import type { ChangeListener } from '../events/change-events.ts';
import { insertDelivery } from './delivery-store.ts';
import { matchingTargets } from './match-targets.ts';
import { signBody, webhookBody } from './webhook-body.ts';

export function recordDeliveries(cms: CMS, startDelivery: (id: string) => void): ChangeListener {
  return (event, scope) => {
    const targets = matchingTargets(cms.config.webhooks, event);
    if (targets.length === 0) return;
    const body = webhookBody(cms.config, event);
    const now = cms.clock.now();
    for (const { index, target } of targets) {
      const id = Bun.randomUUIDv7();
      insertDelivery(cms.sqlite, {
        id,
        event: event.type,
        url: target.url,
        target: index,
        collection: event.collection ?? null,
        global: event.global ?? null,
        docId: event.collection !== undefined ? (event.id ?? null) : null,
        body,
        signature: target.secret ? signBody(target.secret, body) : null,
      }, now);
      scope.afterCommit(() => startDelivery(id));
    }
  };
}
