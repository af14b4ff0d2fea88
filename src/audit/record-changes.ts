/**
 * The change-event listener of the audit log: the events of one write (an update that publishes announces
 * `update` then `publish`) fold into ONE entry per document, written inside the write's transaction once
 * the write is done (scope.beforeCommit), so it commits or rolls back with the write.
 */
import type { CMS } from '../cms.ts';
import type { ChangeEvent, ChangeListener, TransactionScope } from '../events/change-events.ts';
import { changesBetween } from './changes.ts';
import { SYSTEM_ORIGIN, writeAuditEntry, type AuditAction } from './write-entry.ts';

type Pending = { action: AuditAction; first: ChangeEvent; last: ChangeEvent };

/** A later event of the same write says more about it: publishing is what a save that publishes did. */
const WEIGHT: Record<string, number> = { update: 1, create: 2, delete: 3, unpublish: 4, publish: 5 };

function actionOf(event: ChangeEvent): AuditAction {
  if (event.type === 'draft') return event.previousDoc ? 'update' : 'create';
  return event.type;
}

export function recordAuditEntries(cms: CMS): ChangeListener {
  const open = new WeakMap<TransactionScope, Map<string, Pending>>();
  return (event, scope) => {
    let writes = open.get(scope);
    if (!writes) open.set(scope, (writes = new Map()));
    const subject = event.global !== undefined ? `g:${event.global}` : `c:${event.collection}:${event.id}`;
    const action = actionOf(event);
    const pending = writes.get(subject);
    if (pending) {
      pending.last = event;
      if ((WEIGHT[action] ?? 0) > (WEIGHT[pending.action] ?? 0)) pending.action = action;
      return;
    }
    const entry: Pending = { action, first: event, last: event };
    writes.set(subject, entry);
    scope.beforeCommit(() => writeChangeEntry(cms, scope, entry));
  };
}

function writeChangeEntry(cms: CMS, scope: TransactionScope, { action, first, last }: Pending): Promise<void> {
  const entity =
    first.global !== undefined
      ? cms.config.globalsBySlug.get(first.global)
      : cms.config.collectionsBySlug.get(first.collection!);
  const before = first.previousDoc;
  const after = action === 'delete' ? null : last.doc;
  return writeAuditEntry(scope.tx, cms, {
    action,
    collection: first.collection ?? null,
    global: first.global ?? null,
    document: first.id ?? null,
    origin: scope.origin ?? SYSTEM_ORIGIN,
    at: last.timestamp,
    changes: entity ? changesBetween(entity, before, after) : {},
  });
}
