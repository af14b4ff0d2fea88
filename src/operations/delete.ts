/**
 * Deletes a document: read filter (404) → delete access → beforeDelete → delete and announce in one
 * transaction → a media document's files → afterDelete. In a collection with a trash the delete moves the
 * document there instead; `trash: true` deletes for good, trashed or not (trash.ts).
 */
import { isUploadCollection } from '../config/upload-collections.ts';
import { deleteRow } from '../db/documents.ts';
import { inTransaction } from '../db/transaction.ts';
import { isoNow } from '../clock.ts';
import { checkAccess } from '../access/check-access.ts';
import { getCollection, parseId } from './steps/entities.ts';
import { runSideEffectHooks } from './steps/hooks.ts';
import { presentDoc } from './steps/present.ts';
import { assertMatches, loadReadable } from './steps/load-stored.ts';
import { originOf, type OperationContext } from '../operation-context.ts';
import { forgetDocumentHistory } from '../versions/forget.ts';
import { deleteMediaFiles } from '../uploads/media-files.ts';
import { isTrashed, moveToTrash } from './trash.ts';
import { storeRuleOf } from './steps/builtin-write-rules.ts';
import { assertFolderEmpty } from './folders.ts';

export type DeleteArgs = { collection: string; id: number | string; depth?: number; trash?: boolean };

export async function deleteDocument(ctx: OperationContext, args: DeleteArgs): Promise<Record<string, unknown>> {
  const collection = getCollection(ctx.cms, args.collection);
  const id = parseId(args.id);
  const existing = await loadReadable(ctx, collection, id, args.trash);
  const deleteWhere = await checkAccess(ctx, collection, 'delete', { id, doc: existing });
  await assertMatches(ctx, collection, id, deleteWhere);
  if (collection.builtIn === 'folders') await assertFolderEmpty(ctx, id);
  const intoTrash = Boolean(collection.trash) && !args.trash;
  // A document already in the trash was announced as deleted when it went there, and its hooks ran then.
  const announced = isTrashed(existing);
  if (!announced) await runSideEffectHooks(ctx, collection, 'beforeDelete', { id, doc: existing, operation: 'delete' });
  if (intoTrash) {
    const trashed = await moveToTrash(ctx, collection, id, existing);
    await runSideEffectHooks(ctx, collection, 'afterDelete', { id, doc: trashed, operation: 'delete' });
    return presentDoc(ctx, collection, trashed, 0);
  }
  const now = isoNow(ctx.cms.clock);
  await inTransaction(
    ctx.cms.store,
    ctx.cms.events,
    async (scope) => {
      const write = () => deleteRow(scope.tx, collection, id, scope);
      const rule = storeRuleOf(collection);
      await (rule?.write ? rule.write(scope.tx, write) : write());
      await rule?.deleted?.(scope.tx, id);
      await forgetDocumentHistory(ctx.cms, scope.tx, collection, id);
      if (!announced)
        await scope.emit({
          type: 'delete',
          collection: collection.slug,
          id,
          doc: existing,
          previousDoc: existing,
          timestamp: now,
        });
    },
    originOf(ctx),
  );
  if (isUploadCollection(collection)) await deleteMediaFiles(ctx.cms, existing);
  if (!announced) await runSideEffectHooks(ctx, collection, 'afterDelete', { id, doc: existing, operation: 'delete' });
  return presentDoc(ctx, collection, existing, 0);
}
