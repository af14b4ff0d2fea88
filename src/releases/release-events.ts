/**
 * What a published release announces besides each document's own events (docs/releases.md): one `release`
 * webhook delivery per target whose `events` name `release` (so a static site rebuilds once), and one
 * `release.publish` audit entry. Both are written in the publish's transaction and commit with it.
 */
import type { CMS } from '../cms.ts';
import type { TransactionScope } from '../events/change-events.ts';
import { insertDelivery } from '../webhooks/delivery-store.ts';
import { signBody } from '../webhooks/webhook-body.ts';
import { SYSTEM_ORIGIN, writeAuditEntry } from '../audit/write-entry.ts';

export type ReleaseSummaryItem = { collection?: string; global?: string; document?: number; action: string };
export type ReleaseSummary = { id: number; title: string; items: ReleaseSummaryItem[] };

export async function recordReleaseWebhooks(cms: CMS, scope: TransactionScope, release: ReleaseSummary, at: string) {
  const targets = cms.config.webhooks
    .map((target, index) => ({ target, index }))
    .filter(({ target }) => target.events?.includes('release'));
  if (targets.length === 0) return;
  const body = JSON.stringify({
    event: 'release',
    release: { id: release.id, title: release.title },
    items: release.items,
    timestamp: at,
  });
  const now = cms.clock.now();
  for (const { target, index } of targets) {
    await insertDelivery(
      scope.tx,
      {
        id: Bun.randomUUIDv7(),
        event: 'release',
        url: target.url,
        target: index,
        collection: null,
        global: null,
        docId: null,
        body,
        signature: target.secret ? signBody(target.secret, body) : null,
      },
      now,
      now,
    );
  }
}

export async function recordReleaseAudit(
  cms: CMS,
  scope: TransactionScope,
  action: 'release.publish' | 'release.revert' | 'release.schedule' | 'release.unschedule',
  release: ReleaseSummary,
  at: string,
) {
  await writeAuditEntry(scope.tx, cms, {
    action,
    document: release.id,
    origin: { ...(scope.origin ?? SYSTEM_ORIGIN), action: undefined },
    at,
    changes: { release: { from: null, to: { id: release.id, title: release.title, items: release.items.length } } },
  });
}
