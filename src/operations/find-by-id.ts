/** Reads one document; one hidden by the read filter is a 404, like one that does not exist. */
import { rowToDoc } from '../fields/row.ts';
import { selectRowById } from '../db/documents.ts';
import { compileWhere, TRUSTED } from '../query/where.ts';
import { notFound } from '../errors.ts';
import type { SanitizedCollection } from '../config/types.ts';
import { checkAccess } from '../access/check-access.ts';
import { getCollection, parseId } from './entities.ts';
import { presentDoc } from './present.ts';
import { localeOf, type OperationContext } from './context.ts';
import { withPendingDraft } from '../versions/drafts.ts';
import { mergeUnsaved, readWithPreviewToken } from './preview.ts';
import { readShapeOf, type ShapeArgs } from './read-shape.ts';
import { withoutTrashed } from './trash.ts';
import { parseJoins } from '../query/join-options.ts';

/** `data`: unsaved values merged over the document as read (Payload's method-override read); nothing is saved. */
export type FindByIDArgs = ShapeArgs & { collection: string; id: number | string; depth?: number; draft?: boolean; preview?: string; data?: unknown; trash?: boolean };

export async function findByID(ctx: OperationContext, args: FindByIDArgs): Promise<Record<string, unknown>> {
  const collection = getCollection(ctx.cms, args.collection);
  const id = parseId(args.id);
  if (args.preview !== undefined) return readWithPreviewToken(ctx, { collection: collection.slug, id }, args.preview, args.depth ?? 1, args.richText);
  const accessWhere = withoutTrashed(collection, await checkAccess(ctx, collection, 'read', { id }), args.trash);
  const shape = await readShapeOf(ctx, collection, args);
  let stored = await loadStored(ctx, collection, id, accessWhere);
  if (args.draft && collection.drafts && (ctx.user || ctx.overrideAccess)) stored = await withPendingDraft(ctx.cms.store, collection, stored);
  if (args.data !== undefined) stored = mergeUnsaved(ctx, collection, stored, args.data);
  return presentDoc(ctx, collection, stored, args.depth ?? 1, shape, parseJoins(args.joins));
}

/** The stored document (every locale) if it exists and the filter lets it through; else 404. */
export async function loadStored(ctx: OperationContext, collection: SanitizedCollection, id: number, filter: Parameters<typeof compileWhere>[2] = null): Promise<Record<string, unknown>> {
  const { store } = ctx.cms;
  const row = await selectRowById(store, collection, id, compileWhere(store.dialect, collection, filter, localeOf(ctx), TRUSTED));
  if (!row) throw notFound('Document not found.');
  return rowToDoc(collection, row);
}
