/**
 * Bulk writes by `where` (docs/payload-compatibility.md, Payload's `PATCH /:collection` and `DELETE /:collection`): the
 * matching documents the caller may change, each through the single-document operation (access, hooks,
 * validation, versions, events and webhooks exactly as there), each in its own transaction. One
 * document's refusal or failure is reported beside the others' results and stops nothing.
 */
import { APIError, badRequest } from '../errors.ts';
import type { SanitizedCollection, Where } from '../config/types.ts';
import { selectRows } from '../db/documents.ts';
import { compileWhere, TRUSTED } from '../query/where.ts';
import { checkAccess } from '../access/check-access.ts';
import { andParts } from '../db/store.ts';
import { matchDocuments } from './find.ts';
import { getCollection } from './steps/entities.ts';
import { update } from './update.ts';
import { deleteDocument } from './delete.ts';
import type { OperationContext } from '../operation-context.ts';

type Doc = Record<string, unknown>;
export type BulkResult = { docs: Doc[]; errors: { id: number; message: string }[] };
export type UpdateManyArgs = {
  collection: string;
  where: Where;
  data: unknown;
  depth?: number;
  draft?: boolean;
  trash?: boolean;
};
export type DeleteManyArgs = { collection: string; where: Where; depth?: number; draft?: boolean; trash?: boolean };

export async function updateMany(ctx: OperationContext, args: UpdateManyArgs): Promise<BulkResult> {
  const collection = getCollection(ctx.cms, args.collection);
  const ids = await matchingIds(ctx, collection, args, 'update');
  // Each document gets its own copy: hooks may change the data they are given.
  return eachDocument(ctx, ids, (id) =>
    update(ctx, {
      collection: collection.slug,
      id,
      data: structuredClone(args.data),
      depth: args.depth,
      draft: args.draft,
      trash: args.trash,
    }),
  );
}

export async function deleteMany(ctx: OperationContext, args: DeleteManyArgs): Promise<BulkResult> {
  const collection = getCollection(ctx.cms, args.collection);
  const ids = await matchingIds(ctx, collection, args, 'delete');
  return eachDocument(ctx, ids, (id) =>
    deleteDocument(ctx, { collection: collection.slug, id, depth: args.depth, trash: args.trash }),
  );
}

/**
 * Ids the read (filter, caller's where, drafts) matches and the action's own filter allows. A rule that
 * refuses the action outright is the whole request's 401/403, as for one document.
 */
async function matchingIds(
  ctx: OperationContext,
  collection: SanitizedCollection,
  args: { where: Where; draft?: boolean; trash?: boolean },
  action: 'update' | 'delete',
): Promise<number[]> {
  const where = args.where as unknown;
  if (!where || typeof where !== 'object' || Object.keys(where).length === 0) {
    throw badRequest(`A "where" is required: say which documents to ${action}.`, 'where');
  }
  const actionWhere = await checkAccess(ctx, collection, action);
  const matched = await matchDocuments(ctx, collection, args);
  const { store } = ctx.cms;
  const filter = andParts([
    matched.where,
    compileWhere(store.dialect, collection, actionWhere, matched.locale, TRUSTED),
  ]);
  const rows = await selectRows(store, collection, filter, '"id" ASC', null, 0, matched.from);
  return rows.map((row) => row.id as number);
}

async function eachDocument(
  ctx: OperationContext,
  ids: number[],
  run: (id: number) => Promise<Doc>,
): Promise<BulkResult> {
  const result: BulkResult = { docs: [], errors: [] };
  for (const id of ids) {
    try {
      result.docs.push(await run(id));
    } catch (error) {
      // An unexpected error is logged, and named to the caller only as a 500 would be.
      if (!(error instanceof APIError)) ctx.cms.log.error(error);
      result.errors.push({ id, message: error instanceof APIError ? error.message : 'Something went wrong.' });
    }
  }
  return result;
}
