/**
 * The trash of a collection with `trash` on (docs/trash.md): a delete stamps `deletedAt` and the document
 * leaves every read; `trash: true` on a read lets trashed documents through, a restore clears the stamp,
 * and a delete with `trash: true` (or the job loop, after `keepDays`) removes the document for good.
 *
 * Outside readers see the trash as a delete and a restore as a create: the change events say so, so
 * webhooks, realtime lists, the search index and cached answers drop and regain the document.
 */
import type { SanitizedCollection, Where } from '../config/types.ts';
import { rowToDoc } from '../fields/row.ts';
import { selectRowById, updateRow } from '../db/documents.ts';
import { inTransaction } from '../db/transaction.ts';
import { isoNow } from '../clock.ts';
import { notFound } from '../errors.ts';
import { deriveContext, originOf, type OperationContext } from '../operation-context.ts';

type Doc = Record<string, unknown>;
const LIVE: Where = { deletedAt: { exists: false } };

/** The filter a read applies: the given one, plus "not in the trash" unless the caller asked for the trash too. */
export function withoutTrashed(collection: SanitizedCollection, where: Where | null, trash?: boolean): Where | null {
  if (!collection.trash || trash) return where;
  return where ? { and: [where, LIVE] } : LIVE;
}

export const isTrashed = (doc: Doc) => typeof doc.deletedAt === 'string' && doc.deletedAt !== '';

/** Stamps `deletedAt`; announced as a delete. Returns the stored document as it now is. */
export async function moveToTrash(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  existing: Doc,
): Promise<Doc> {
  const now = isoNow(ctx.cms.clock);
  return stampDeleted(ctx, collection, id, existing, now, 'delete');
}

/**
 * Clears `deletedAt`; announced as a create (the document is back for every reader), and kept in the audit
 * log as the restore it is.
 */
export async function restoreFromTrash(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  existing: Doc,
): Promise<Doc> {
  return stampDeleted(deriveContext(ctx, { auditAction: 'restore' }), collection, id, existing, null, 'create');
}

async function stampDeleted(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  existing: Doc,
  deletedAt: string | null,
  type: 'delete' | 'create',
): Promise<Doc> {
  const now = isoNow(ctx.cms.clock);
  return inTransaction(
    ctx.cms.store,
    ctx.cms.events,
    async (scope) => {
      if (!(await selectRowById(scope.tx, collection, id))) throw notFound('Document not found.');
      await updateRow(scope.tx, collection, id, { deletedAt, updatedAt: now }, scope);
      const saved = rowToDoc(collection, (await selectRowById(scope.tx, collection, id))!);
      await scope.emit({ type, collection: collection.slug, id, doc: saved, previousDoc: existing, timestamp: now });
      return saved;
    },
    originOf(ctx),
  );
}
