/** Globals: one document each, stored as row 1 of their table; read returns defaults until first saved. */
import { docToRow, rowToDoc } from '../fields/row.ts';
import { insertRow, selectRowById, updateRow } from '../db/documents.ts';
import { inTransaction } from '../db/transaction.ts';
import { isoNow } from '../clock.ts';
import { checkAccess } from '../access/check-access.ts';
import { getGlobal } from './steps/entities.ts';
import { assertPublishable, prepareWrite } from './steps/prepare-write.ts';
import { runHooks } from './steps/hooks.ts';
import { runFieldHooks } from './steps/field-hooks.ts';
import { assertSaveHoldsLock } from './locks.ts';
import { presentDoc } from './steps/present.ts';
import { statusEvents } from './steps/status-events.ts';
import { originOf, stampOf, type OperationContext } from '../operation-context.ts';
import {
  autosaveTarget,
  withPendingDraft,
  pendingDraft,
  recordLiveVersion,
  saveDraftOnly,
  savesOnlyDraft,
} from '../versions/drafts.ts';
import { ownerOf } from '../versions/live-row.ts';
import { mergeUnsaved, readWithPreviewToken } from './preview.ts';
import { GLOBAL_ROW, loadGlobal } from './steps/load-stored.ts';
import { readShapeOf, type ShapeArgs } from './steps/read-shape.ts';
import { globalWithReleases, openReleases, type ReleaseArgs } from './steps/release-preview.ts';
import type { SanitizedGlobal } from '../config/types.ts';

/** `data`: unsaved values merged over the global as read (Payload's method-override read); nothing is saved. */
export type FindGlobalArgs = ShapeArgs &
  ReleaseArgs & {
    slug: string;
    depth?: number;
    draft?: boolean;
    data?: unknown;
  };
export type UpdateGlobalArgs = {
  slug: string;
  data: unknown;
  depth?: number;
  draft?: boolean;
  autosave?: boolean;
  lockToken?: string;
};

export async function findGlobal(ctx: OperationContext, args: FindGlobalArgs): Promise<Record<string, unknown>> {
  const global = getGlobal(ctx.cms, args.slug);
  if (args.release !== undefined) return findGlobalWithReleases(ctx, global, args);
  if (args.preview !== undefined)
    return readWithPreviewToken(ctx, { global: global.slug }, args.preview, args.depth ?? 1, args.richText);
  await checkAccess(ctx, global, 'read');
  const shape = await readShapeOf(ctx, global, args);
  let stored = await loadGlobal(ctx, global);
  if (args.draft && global.drafts && (ctx.user || ctx.overrideAccess))
    stored = await withPendingDraft(ctx.cms.store, global, stored);
  if (args.data !== undefined) stored = mergeUnsaved(ctx, global, stored, args.data);
  return presentDoc(ctx, global, stored, args.depth ?? 1, shape);
}

export async function updateGlobal(ctx: OperationContext, args: UpdateGlobalArgs): Promise<Record<string, unknown>> {
  const global = getGlobal(ctx.cms, args.slug);
  const existing = await loadGlobal(ctx, global);
  await checkAccess(ctx, global, 'update', { data: args.data as Record<string, unknown>, doc: existing });
  const owner = ownerOf(global);
  const base = global.drafts ? ((await pendingDraft(ctx.cms.store, owner)) ?? existing) : existing;
  const prepared = await prepareWrite(ctx, global, args.data, {
    operation: 'update',
    existing: base.updatedAt ? base : null,
    draft: args.draft,
    autosave: args.autosave,
  });
  const now = isoNow(ctx.cms.clock);
  const onlyDraft = args.autosave ? autosaveTarget(global) : savesOnlyDraft(global, args.draft, prepared.status);
  const stored = { ...prepared.stored };
  if (global.drafts) stored.status = onlyDraft ? 'draft' : (prepared.status ?? existing.status);
  await assertPublishable(ctx, global, stored, onlyDraft, { sent: prepared.sent });

  const doc = await inTransaction(
    ctx.cms.store,
    ctx.cms.events,
    async (scope) => {
      const { tx } = scope;
      await assertSaveHoldsLock(ctx, tx, { global: global.slug }, args.lockToken);
      const before = await selectRowById(tx, global, GLOBAL_ROW);
      const previous = before ? rowToDoc(global, before) : null;
      if (previous) delete previous.id;
      if (onlyDraft && previous)
        return {
          saved: await saveDraftOnly(
            scope,
            owner,
            { ...stored, createdAt: previous.createdAt },
            base,
            stampOf(ctx, now),
            args.autosave,
          ),
          previous: base,
        };
      if (before) await updateRow(tx, global, GLOBAL_ROW, { ...docToRow(global, stored, tx.dialect), updatedAt: now });
      else
        await insertRow(tx, global, {
          id: GLOBAL_ROW,
          ...docToRow(global, stored, tx.dialect),
          createdAt: now,
          updatedAt: now,
        });
      const saved = rowToDoc(global, (await selectRowById(tx, global, GLOBAL_ROW))!);
      delete saved.id;
      const publishedDraft = global.drafts && (await recordLiveVersion(tx, owner, saved, stampOf(ctx, now)));
      const event = { global: global.slug, doc: saved, previousDoc: previous, timestamp: now };
      await scope.emit({ ...event, type: onlyDraft ? 'draft' : 'update' });
      for (const type of statusEvents(previous, saved, publishedDraft)) await scope.emit({ ...event, type });
      return { saved, previous };
    },
    originOf(ctx),
  );

  const fieldsChanged = await runFieldHooks(ctx, global.fields, 'afterChange', doc.saved, {
    originalDoc: doc.previous,
    operation: 'update',
  });
  const changed = await runHooks(ctx, global, 'afterChange', 'doc', {
    doc: fieldsChanged,
    previousDoc: doc.previous,
    operation: 'update',
  });
  return presentDoc(ctx, global, changed, args.depth ?? 1);
}

/** A read with `release=` (docs/releases.md): the global as the releases would leave it, under the read rule. */
async function findGlobalWithReleases(caller: OperationContext, global: SanitizedGlobal, args: FindGlobalArgs) {
  const { ids, ctx } = await openReleases(caller, args);
  await checkAccess(ctx, global, 'read');
  const shape = await readShapeOf(ctx, global, args);
  const stored = await globalWithReleases(ctx, global, await loadGlobal(ctx, global), ids);
  return presentDoc(ctx, global, stored, args.depth ?? 1, shape);
}
