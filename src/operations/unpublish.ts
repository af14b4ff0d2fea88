/** Unpublish: the live document's status leaves `published`; its content stays, as a draft. A pending draft stays pending. */
import { inTransaction } from '../db/transaction.ts';
import { isoNow } from '../clock.ts';
import { recordLiveVersion } from '../versions/drafts.ts';
import { eventSubject, readLiveDoc, writeLiveStatus } from '../versions/live-row.ts';
import { loadForUpdate, type DocumentRef } from './steps/document-target.ts';
import { runHooks } from './steps/hooks.ts';
import { presentDoc } from './steps/present.ts';
import { originOf, stampOf, type OperationContext } from '../operation-context.ts';

export type UnpublishArgs = DocumentRef & { depth?: number };

export async function unpublish(ctx: OperationContext, args: UnpublishArgs): Promise<Record<string, unknown>> {
  const { entity, owner, live } = await loadForUpdate(ctx, args, { drafts: true });
  const now = isoNow(ctx.cms.clock);
  const change = await inTransaction(
    ctx.cms.store,
    ctx.cms.events,
    async (scope) => {
      const previous = await readLiveDoc(scope.tx, owner);
      if (previous?.status !== 'published') return null; // nothing to leave: answered as is, no event
      await writeLiveStatus(scope.tx, owner, 'draft', now, scope);
      const saved = (await readLiveDoc(scope.tx, owner))!;
      await recordLiveVersion(scope.tx, owner, saved, stampOf(ctx, now), { keepPending: true });
      await scope.emit({
        type: 'unpublish',
        ...eventSubject(owner),
        doc: saved,
        previousDoc: previous,
        timestamp: now,
      });
      return { saved, previous };
    },
    originOf(ctx),
  );
  if (!change) return presentDoc(ctx, entity, live, args.depth ?? 1);
  const id = entity.kind === 'collection' ? owner.parent : undefined;
  const doc = await runHooks(ctx, entity, 'afterChange', 'doc', {
    doc: change.saved,
    previousDoc: change.previous,
    operation: 'update',
    id,
  });
  return presentDoc(ctx, entity, doc, args.depth ?? 1);
}
