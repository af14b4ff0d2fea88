/**
 * Loading what an operation acts on: a stored document under a filter, one the reader may see, the check
 * that an access filter lets a document through, and a global (or its defaults). Shared by the reads,
 * the writes and the drafts operations, so none of them imports another.
 */
import { rowToDoc } from '../../fields/row.ts';
import { documentOfDefaults } from '../../fields/defaults.ts';
import { selectRowById } from '../../db/documents.ts';
import { compileWhere, TRUSTED } from '../../query/where.ts';
import { forbidden, notFound } from '../../errors.ts';
import type { SanitizedCollection, SanitizedGlobal, Where } from '../../config/types.ts';
import { checkAccess } from '../../access/check-access.ts';
import { localeOf, type OperationContext } from '../../operation-context.ts';
import { withoutTrashed } from '../trash.ts';

export const GLOBAL_ROW = 1;

/** The stored document (every locale) if it exists and the filter lets it through; else 404. */
export async function loadStored(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  filter: Parameters<typeof compileWhere>[2] = null,
): Promise<Record<string, unknown>> {
  const { store } = ctx.cms;
  const row = await selectRowById(
    store,
    collection,
    id,
    compileWhere(store.dialect, collection, filter, localeOf(ctx), TRUSTED),
  );
  if (!row) throw notFound('Document not found.');
  return rowToDoc(collection, row);
}

/** The stored document if the reader may see it: a read rule that says no is a 401/403, a filter (or the trash, unless `trash`) that hides it a 404. */
export async function loadReadable(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  trash?: boolean,
): Promise<Record<string, unknown>> {
  const readWhere = await checkAccess(ctx, collection, 'read', { id });
  return loadStored(ctx, collection, id, withoutTrashed(collection, readWhere, trash));
}

/** An access rule that answered with a filter allows only documents that match it. */
export async function assertMatches(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  where: Where | null,
): Promise<void> {
  if (!where) return;
  const { store } = ctx.cms;
  const filter = compileWhere(store.dialect, collection, where, localeOf(ctx), TRUSTED);
  if (!(await selectRowById(store, collection, id, filter))) throw forbidden();
}

/** The stored global, or its defaults (never saved yet). */
export async function loadGlobal(ctx: OperationContext, global: SanitizedGlobal): Promise<Record<string, unknown>> {
  const row = await selectRowById(ctx.cms.store, global, GLOBAL_ROW);
  if (row) {
    const doc = rowToDoc(global, row);
    delete doc.id;
    return doc;
  }
  const doc = documentOfDefaults(global.fields, { user: ctx.user }, ctx.cms.config.localization?.defaultLocale ?? null);
  if (global.drafts) doc.status = 'draft';
  doc.createdAt = null;
  doc.updatedAt = null;
  return doc;
}
