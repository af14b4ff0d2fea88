/** Updates only the fields given: read filter (404) → update access (401/403) → prepare → persist and announce → afterChange → present. */
import { isUploadCollection } from '../config/upload-collections.ts';
import { docToRow, rowToDoc } from '../fields/row.ts';
import { assertUniqueAmongOthers, selectRowById, updateRow } from '../db/documents.ts';
import { inTransaction } from '../db/transaction.ts';
import { notFound } from '../errors.ts';
import { isoNow } from '../clock.ts';
import { checkAccess } from '../access/check-access.ts';
import { getCollection, parseId } from './entities.ts';
import { assertMatches, loadReadable } from './load-stored.ts';
import { assertPublishable, prepareWrite } from './prepare-write.ts';
import { runHooks } from './hooks.ts';
import { runFieldHooks } from './field-hooks.ts';
import { assertSaveHoldsLock } from './locks.ts';
import { presentDoc } from './present.ts';
import { statusEvents } from './status-events.ts';
import { originOf, stampOf, type OperationContext } from '../operation-context.ts';
import { guardLastActiveAdmin, endSessionsOnUserChange } from '../auth/user-invariants.ts';
import { autosaveTarget, pendingDraft, recordLiveVersion, saveDraftOnly, savesOnlyDraft } from '../versions/drafts.ts';
import { ownerOf } from '../versions/live-row.ts';
import type { SanitizedCollection } from '../config/types.ts';
import { reframeIfChanged } from './reframe-image.ts';
import { frameOf } from '../uploads/image-sizes.ts';
import { documentTurnKey, inDocumentTurn } from './document-turn.ts';
import { isTrashed, moveToTrash, restoreFromTrash } from './trash.ts';

/**
 * `trash`: the document may be in the trash; `deletedAt: null` in `data` restores it (docs/trash.md).
 * `autosave`: a draft saved while the editor types; never publishes, collapses into the previous autosave (docs/content-model.md).
 */
export type UpdateArgs = {
  collection: string;
  id: number | string;
  data: unknown;
  depth?: number;
  draft?: boolean;
  autosave?: boolean;
  internal?: boolean;
  lockToken?: string;
  trash?: boolean;
};

export async function update(ctx: OperationContext, args: UpdateArgs): Promise<Record<string, unknown>> {
  const collection = getCollection(ctx.cms, args.collection);
  // A new frame changes a media document's files: one such write at a time (document-turn.ts). An
  // internal update is a file replacement's own save, already in its turn.
  if (isUploadCollection(collection) && !args.internal) {
    const key = documentTurnKey(collection.slug, parseId(args.id));
    return inDocumentTurn(ctx.cms, key, () => updateNow(ctx, collection, args));
  }
  return updateNow(ctx, collection, args);
}

async function updateNow(
  ctx: OperationContext,
  collection: SanitizedCollection,
  args: UpdateArgs,
): Promise<Record<string, unknown>> {
  const id = parseId(args.id);
  let existing = await loadReadable(ctx, collection, id, args.trash);
  const data = args.data as Record<string, unknown> | null;
  if (collection.trash && data && typeof data === 'object' && 'deletedAt' in data) {
    const { deletedAt, ...rest } = data;
    existing = await moveInOrOutOfTrash(ctx, collection, id, existing, deletedAt);
    // Only the move was asked for: the answer is the document as it now is.
    if (Object.keys(rest).length === 0) return presentDoc(ctx, collection, existing, args.depth ?? 1);
    args = { ...args, data: rest };
  }
  const updateWhere = await checkAccess(ctx, collection, 'update', {
    id,
    data: args.data as Record<string, unknown>,
    doc: existing,
  });
  await assertMatches(ctx, collection, id, updateWhere);
  // Drafts: a save starts from the pending draft when there is one (docs/drafts-and-versions.md).
  const owner = ownerOf(collection, id);
  const base = collection.drafts ? ((await pendingDraft(ctx.cms.store, owner)) ?? existing) : existing;
  const prepared = await prepareWrite(ctx, collection, args.data, {
    operation: 'update',
    existing: base,
    id,
    internal: args.internal,
    draft: args.draft,
    autosave: args.autosave,
  });
  const now = isoNow(ctx.cms.clock);
  const onlyDraft = args.autosave
    ? autosaveTarget(collection)
    : savesOnlyDraft(collection, args.draft, prepared.status);
  const stored = { ...prepared.stored };
  if (collection.drafts) stored.status = prepared.status ?? existing.status;
  await assertPublishable(ctx, collection, stored, onlyDraft, { sent: prepared.sent, id });
  // A crop is stored as its four numbers only: anything else sent inside it is dropped (a 400 if they are wrong).
  if (isUploadCollection(collection) && stored.crop != null) stored.crop = frameOf(stored).crop;
  // A new focal point or crop makes the image sizes again (reframe-image.ts); the old files go after the commit.
  const reframed =
    isUploadCollection(collection) && !args.internal
      ? await reframeIfChanged(ctx.cms, existing, stored, collection.upload.imageSizes)
      : null;
  if (reframed) stored.sizes = reframed.sizes;

  const doc = await inTransaction(
    ctx.cms.store,
    ctx.cms.events,
    async (scope) => {
      const { tx } = scope;
      const before = await selectRowById(tx, collection, id);
      if (!before) throw notFound('Document not found.');
      await assertSaveHoldsLock(ctx, tx, { collection: collection.slug, id }, args.lockToken);
      const previous = rowToDoc(collection, before);
      if (onlyDraft && collection.validateDrafts)
        await assertUniqueAmongOthers(tx, collection, id, docToRow(collection, stored, tx.dialect));
      if (onlyDraft)
        return {
          saved: await saveDraftOnly(
            scope,
            owner,
            { ...stored, id, createdAt: previous.createdAt },
            base,
            stampOf(ctx, now),
            args.autosave,
          ),
          previous: base,
        };
      const write = () =>
        updateRow(tx, collection, id, {
          ...docToRow(collection, stored, tx.dialect),
          ...prepared.system,
          updatedAt: now,
        });
      if (collection.builtIn === 'users') await guardLastActiveAdmin(tx, write);
      else await write();
      const saved = rowToDoc(collection, (await selectRowById(tx, collection, id))!);
      if (collection.builtIn === 'users')
        await endSessionsOnUserChange(tx, id, previous, saved, Boolean(prepared.system.passwordHash));
      const publishedDraft = collection.drafts && (await recordLiveVersion(tx, owner, saved, stampOf(ctx, now)));
      const event = { collection: collection.slug, id, doc: saved, previousDoc: previous, timestamp: now };
      await scope.emit({ ...event, type: 'update' });
      for (const type of statusEvents(previous, saved, publishedDraft)) await scope.emit({ ...event, type });
      return { saved, previous };
    },
    originOf(ctx),
  ).catch(async (error) => {
    await reframed?.discard();
    throw error;
  });
  await reframed?.commit();

  const fieldsChanged = await runFieldHooks(ctx, collection.fields, 'afterChange', doc.saved, {
    originalDoc: doc.previous,
    operation: 'update',
  });
  const changed = await runHooks(ctx, collection, 'afterChange', 'doc', {
    doc: fieldsChanged,
    previousDoc: doc.previous,
    operation: 'update',
    id,
  });
  return presentDoc(ctx, collection, changed, args.depth ?? 1);
}

/** `deletedAt: null` restores (update access); a date trashes (delete access), as Payload's clients do it. */
async function moveInOrOutOfTrash(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  existing: Record<string, unknown>,
  deletedAt: unknown,
) {
  const wanted = deletedAt !== null && deletedAt !== undefined && deletedAt !== '';
  if (wanted === isTrashed(existing)) return existing;
  if (!wanted) {
    await assertMatches(ctx, collection, id, await checkAccess(ctx, collection, 'update', { id, doc: existing }));
    return restoreFromTrash(ctx, collection, id, existing);
  }
  await assertMatches(ctx, collection, id, await checkAccess(ctx, collection, 'delete', { id, doc: existing }));
  return moveToTrash(ctx, collection, id, existing);
}
