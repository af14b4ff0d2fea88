/** Discard: the pending draft (every pending version) is removed; the live document is unchanged. 404 when there is none. */
import { inTransaction } from '../db/transaction.ts';
import { notFound } from '../errors.ts';
import { deletePendingDrafts } from '../versions/store.ts';
import { loadForUpdate, type DocumentRef } from './steps/document-target.ts';
import { presentDoc } from './steps/present.ts';
import { originOf, type OperationContext } from '../operation-context.ts';
import { eventSubject } from '../versions/live-row.ts';
import { subjectOf, writeAuditEntry } from '../audit/write-entry.ts';

export type DiscardDraftArgs = DocumentRef & { depth?: number };

export async function discardDraft(ctx: OperationContext, args: DiscardDraftArgs): Promise<Record<string, unknown>> {
  const { entity, owner, live } = await loadForUpdate(ctx, args, { drafts: true });
  const removed = await inTransaction(ctx.cms.store, ctx.cms.events, async (scope) => {
    const count = await deletePendingDrafts(scope.tx, owner);
    if (count)
      await writeAuditEntry(scope.tx, ctx.cms, {
        action: 'discard_draft',
        ...subjectOf(eventSubject(owner)),
        origin: originOf(ctx),
      });
    return count;
  });
  if (!removed) throw notFound('There is no pending draft to discard.');
  return presentDoc(ctx, entity, live, args.depth ?? 1);
}
