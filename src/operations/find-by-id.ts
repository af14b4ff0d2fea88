/** Reads one document; one hidden by the read filter is a 404, like one that does not exist. */
import { checkAccess } from '../access/check-access.ts';
import { getCollection, parseId } from './steps/entities.ts';
import { presentDoc } from './steps/present.ts';
import type { OperationContext } from '../operation-context.ts';
import type { SanitizedCollection } from '../config/types.ts';
import { loadStored } from './steps/load-stored.ts';
import { withPendingDraft } from '../versions/drafts.ts';
import { mergeUnsaved, readWithPreviewToken } from './preview.ts';
import { readShapeOf, type ShapeArgs } from './steps/read-shape.ts';
import { withoutTrashed } from './trash.ts';
import { parseJoins } from '../query/join-options.ts';
import { openReleases, releaseRows, type ReleaseArgs } from './steps/release-preview.ts';
import { rowToDoc } from '../fields/row.ts';
import { selectRows } from '../db/documents.ts';
import { andParts } from '../db/store.ts';
import { compileWhere, TRUSTED } from '../query/where.ts';
import { notFound } from '../errors.ts';
import { localeOf } from '../operation-context.ts';

/** `data`: unsaved values merged over the document as read (Payload's method-override read); nothing is saved. */
export type FindByIDArgs = ShapeArgs &
  ReleaseArgs & {
    collection: string;
    id: number | string;
    depth?: number;
    draft?: boolean;
    preview?: string;
    data?: unknown;
    trash?: boolean;
  };

export async function findByID(ctx: OperationContext, args: FindByIDArgs): Promise<Record<string, unknown>> {
  const collection = getCollection(ctx.cms, args.collection);
  const id = parseId(args.id);
  if (args.release !== undefined) return findWithReleases(ctx, collection, id, args);
  if (args.preview !== undefined)
    return readWithPreviewToken(ctx, { collection: collection.slug, id }, args.preview, args.depth ?? 1, args.richText);
  const accessWhere = withoutTrashed(collection, await checkAccess(ctx, collection, 'read', { id }), args.trash);
  const shape = await readShapeOf(ctx, collection, args);
  let stored = await loadStored(ctx, collection, id, accessWhere);
  if (args.draft && collection.drafts && (ctx.user || ctx.overrideAccess))
    stored = await withPendingDraft(ctx.cms.store, collection, stored);
  if (args.data !== undefined) stored = mergeUnsaved(ctx, collection, stored, args.data);
  return presentDoc(ctx, collection, stored, args.depth ?? 1, shape, parseJoins(args.joins));
}

/** A read with `release=` (docs/releases.md): the document as the releases would leave it, under the read rule. */
async function findWithReleases(
  caller: OperationContext,
  collection: SanitizedCollection,
  id: number,
  args: FindByIDArgs,
): Promise<Record<string, unknown>> {
  const { ids, ctx } = await openReleases(caller, args);
  const accessWhere = withoutTrashed(collection, await checkAccess(ctx, collection, 'read', { id }), args.trash);
  const shape = await readShapeOf(ctx, collection, args);
  const { store } = ctx.cms;
  const filter = andParts([
    { sql: '"id" = ?', params: [id] },
    compileWhere(store.dialect, collection, accessWhere, localeOf(ctx), TRUSTED),
  ]);
  const [row] = await selectRows(store, collection, filter, '"id"', 1, 0, await releaseRows(ctx, collection, ids));
  if (!row) throw notFound('Document not found.');
  return presentDoc(ctx, collection, rowToDoc(collection, row), args.depth ?? 1, shape, parseJoins(args.joins));
}
