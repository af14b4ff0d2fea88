/** Discard: the pending draft (every pending version) is removed; the live document is unchanged. 404 when there is none. */
import { inTransaction } from '../db/transaction.ts';
import { notFound } from '../errors.ts';
import { deletePendingDrafts } from '../versions/store.ts';
import { loadForUpdate, type DocumentRef } from './document-target.ts';
import { presentDoc } from './present.ts';
import type { OperationContext } from './context.ts';

export type DiscardDraftArgs = DocumentRef & { depth?: number };

export async function discardDraft(ctx: OperationContext, args: DiscardDraftArgs): Promise<Record<string, unknown>> {
  const { entity, owner, live } = await loadForUpdate(ctx, args, { drafts: true });
  const removed = await inTransaction(ctx.cms.store, ctx.cms.events, (scope) => deletePendingDrafts(scope.tx, owner));
  if (!removed) throw notFound('There is no pending draft to discard.');
  return presentDoc(ctx, entity, live, args.depth ?? 1);
}
