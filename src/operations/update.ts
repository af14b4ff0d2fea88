/**
 * Updates only the fields given, in named steps: read filter (404) → a move in or out of the trash →
 * update access (401/403) → prepare → a new frame's image sizes → persist and announce → afterChange → present.
 */
import { isUploadCollection } from '../config/upload-collections.ts';
import { docToRow, rowToDoc } from '../fields/row.ts';
import { assertUniqueAmongOthers, selectRowById, updateRow } from '../db/documents.ts';
import { inTransaction } from '../db/transaction.ts';
import type { TransactionScope } from '../events/change-events.ts';
import { notFound } from '../errors.ts';
import { isoNow } from '../clock.ts';
import { checkAccess } from '../access/check-access.ts';
import { getCollection, parseId } from './steps/entities.ts';
import { assertMatches, loadReadable } from './steps/load-stored.ts';
import { assertPublishable, prepareWrite, type PreparedWrite } from './steps/prepare-write.ts';
import { runHooks } from './steps/hooks.ts';
import { runFieldHooks } from './steps/field-hooks.ts';
import { assertSaveHoldsLock } from './locks.ts';
import { presentDoc } from './steps/present.ts';
import { statusEvents } from './steps/status-events.ts';
import { originOf, stampOf, type OperationContext } from '../operation-context.ts';
import { autosaveTarget, pendingDraft, recordLiveVersion, saveDraftOnly, savesOnlyDraft } from '../versions/drafts.ts';
import { ownerOf } from '../versions/live-row.ts';
import type { VersionOwner } from '../versions/store.ts';
import type { SanitizedCollection } from '../config/types.ts';
import { reframeIfChanged, type Reframed } from './steps/reframe-image.ts';
import { frameOf } from '../uploads/image-sizes.ts';
import { documentTurnKey, inDocumentTurn } from './steps/document-turn.ts';
import { isTrashed, moveToTrash, restoreFromTrash } from './trash.ts';
import { storeRuleOf } from './steps/builtin-write-rules.ts';

type Doc = Record<string, unknown>;

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

/** What the steps before the transaction settled: where the save starts from, and what it stores. */
type PlannedUpdate = {
  owner: VersionOwner;
  /** The pending draft when there is one, else the stored document. */
  base: Doc;
  prepared: PreparedWrite;
  stored: Doc;
  /** Only the pending draft (or the autosave) changes; the live document stays. */
  onlyDraft: boolean;
  now: string;
};

export async function update(ctx: OperationContext, args: UpdateArgs): Promise<Doc> {
  const collection = getCollection(ctx.cms, args.collection);
  // A new frame changes a media document's files: one such write at a time (document-turn.ts). An
  // internal update is a file replacement's own save, already in its turn.
  if (isUploadCollection(collection) && !args.internal) {
    const key = documentTurnKey(collection.slug, parseId(args.id));
    return inDocumentTurn(ctx.cms, key, () => updateNow(ctx, collection, args));
  }
  return updateNow(ctx, collection, args);
}

async function updateNow(ctx: OperationContext, collection: SanitizedCollection, args: UpdateArgs): Promise<Doc> {
  const id = parseId(args.id);
  const readable = await loadReadable(ctx, collection, id, args.trash);
  const { existing, data, onlyMoved } = await moveAsAsked(ctx, collection, id, readable, args.data);
  // Only the move was asked for: the answer is the document as it now is.
  if (onlyMoved) return presentDoc(ctx, collection, existing, args.depth ?? 1);
  args = { ...args, data };
  await authorizeUpdate(ctx, collection, id, existing, data);
  const planned = await planUpdate(ctx, collection, id, existing, args);
  const reframed = await reframeAsAsked(ctx, collection, existing, planned.stored, args);
  const doc = await persistUpdate(ctx, collection, id, planned, args).catch(async (error) => {
    await reframed?.discard();
    throw error;
  });
  await reframed?.commit();
  return afterUpdate(ctx, collection, id, doc, args.depth);
}

/**
 * `deletedAt` in the data of a collection with a trash moves the document in or out of it first. Answers the
 * document as it now is, the rest of the data, and whether the move was all that was asked.
 */
async function moveAsAsked(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  existing: Doc,
  data: unknown,
): Promise<{ existing: Doc; data: unknown; onlyMoved: boolean }> {
  if (!collection.trash || !data || typeof data !== 'object' || !('deletedAt' in data))
    return { existing, data, onlyMoved: false };
  const { deletedAt, ...rest } = data as Doc;
  const moved = await moveInOrOutOfTrash(ctx, collection, id, existing, deletedAt);
  return { existing: moved, data: rest, onlyMoved: Object.keys(rest).length === 0 };
}

/** Update access, with the rule's filter applied to the stored document (404 when it does not match). */
async function authorizeUpdate(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  existing: Doc,
  data: unknown,
): Promise<void> {
  const updateWhere = await checkAccess(ctx, collection, 'update', { id, data: data as Doc, doc: existing });
  await assertMatches(ctx, collection, id, updateWhere);
}

/**
 * Field access, hooks and validation over the document the save starts from (with drafts, the pending draft
 * when there is one: docs/drafts-and-versions.md), and whether the result may be published.
 */
async function planUpdate(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  existing: Doc,
  args: UpdateArgs,
): Promise<PlannedUpdate> {
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
  return { owner, base, prepared, stored, onlyDraft, now };
}

/** A new focal point or crop makes the image sizes again (reframe-image.ts); the old files go after the commit. */
async function reframeAsAsked(
  ctx: OperationContext,
  collection: SanitizedCollection,
  existing: Doc,
  stored: Doc,
  args: UpdateArgs,
): Promise<Reframed | null> {
  if (!isUploadCollection(collection) || args.internal) return null;
  const reframed = await reframeIfChanged(ctx.cms, existing, stored, collection.upload.imageSizes);
  if (reframed) stored.sizes = reframed.sizes;
  return reframed;
}

/**
 * One transaction: the editor's lock checked, then either the pending draft saved alone or the row written
 * (through the built-in collection's rule, if it has one) with its live version, and the changes announced.
 */
async function persistUpdate(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  planned: PlannedUpdate,
  args: UpdateArgs,
): Promise<{ saved: Doc; previous: Doc }> {
  const { owner, base, stored, onlyDraft, now } = planned;
  return inTransaction(
    ctx.cms.store,
    ctx.cms.events,
    async (scope) => {
      const { tx } = scope;
      const before = await selectRowById(tx, collection, id);
      if (!before) throw notFound('Document not found.');
      await assertSaveHoldsLock(ctx, tx, { collection: collection.slug, id }, args.lockToken);
      const previous = rowToDoc(collection, before);
      if (onlyDraft) {
        if (collection.validateDrafts)
          await assertUniqueAmongOthers(tx, collection, id, docToRow(collection, stored, tx.dialect));
        const draft = { ...stored, id, createdAt: previous.createdAt };
        const saved = await saveDraftOnly(scope, owner, draft, base, stampOf(ctx, now), args.autosave);
        return { saved, previous: base };
      }
      const saved = await writeRow(scope, collection, id, planned, previous);
      const publishedDraft = collection.drafts && (await recordLiveVersion(tx, owner, saved, stampOf(ctx, now)));
      const event = { collection: collection.slug, id, doc: saved, previousDoc: previous, timestamp: now };
      await scope.emit({ ...event, type: 'update' });
      for (const type of statusEvents(previous, saved, publishedDraft)) await scope.emit({ ...event, type });
      return { saved, previous };
    },
    originOf(ctx),
  );
}

/** The row's write, run by the built-in collection's rule where there is one (users: the last admin, sessions). */
async function writeRow(
  scope: TransactionScope,
  collection: SanitizedCollection,
  id: number,
  { prepared, stored, now }: PlannedUpdate,
  previous: Doc,
): Promise<Doc> {
  const { tx } = scope;
  const rule = storeRuleOf(collection);
  const write = () =>
    updateRow(
      tx,
      collection,
      id,
      { ...docToRow(collection, stored, tx.dialect), ...prepared.system, updatedAt: now },
      scope,
    );
  await (rule?.write ? rule.write(tx, write) : write());
  const saved = rowToDoc(collection, (await selectRowById(tx, collection, id))!);
  await rule?.updated?.(tx, { id, previous, saved, system: prepared.system });
  return saved;
}

/** afterChange of the fields, then of the collection, then the answer. */
async function afterUpdate(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  doc: { saved: Doc; previous: Doc },
  depth = 1,
): Promise<Doc> {
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
  return presentDoc(ctx, collection, changed, depth);
}

/** `deletedAt: null` restores (update access); a date trashes (delete access), as Payload's clients do it. */
async function moveInOrOutOfTrash(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  existing: Doc,
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
