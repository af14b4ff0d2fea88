/** Lists documents: access filter merged into the SQL, then where, sort, pagination, population. */
import { rowToDoc } from '../fields/row.ts';
import { countRows, selectRows } from '../db/documents.ts';
import { compileSort, compileWhere, type SQLPart } from '../query/where.ts';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../query/request-options.ts';
import { badRequest } from '../errors.ts';
import type { Where } from '../config/types.ts';
import { checkAccess } from '../access/check-access.ts';
import { getCollection } from './entities.ts';
import { presentDocs } from './present.ts';
import { localeOf, type OperationContext } from './context.ts';
import { overlayDrafts } from '../versions/drafts.ts';

export type FindArgs = { collection: string; where?: Where; sort?: string; limit?: number; page?: number; depth?: number; draft?: boolean };

export type PaginatedDocs = {
  docs: Record<string, unknown>[];
  totalDocs: number;
  limit: number;
  page: number;
  totalPages: number;
  pagingCounter: number;
  hasNextPage: boolean;
  hasPrevPage: boolean;
  nextPage: number | null;
  prevPage: number | null;
};

export function andParts(parts: (SQLPart | null)[]): SQLPart | null {
  const present = parts.filter((p): p is SQLPart => p !== null);
  if (present.length === 0) return null;
  if (present.length === 1) return present[0];
  return { sql: present.map((p) => `(${p.sql})`).join(' AND '), params: present.flatMap((p) => p.params) };
}

export async function find(ctx: OperationContext, args: FindArgs): Promise<PaginatedDocs> {
  const collection = getCollection(ctx.cms, args.collection);
  const limit = args.limit ?? DEFAULT_LIMIT;
  const page = args.page ?? 1;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw badRequest(`"limit" must be between 1 and ${MAX_LIMIT}.`, 'limit');
  if (!Number.isInteger(page) || page < 1) throw badRequest('"page" must be 1 or more.', 'page');
  const accessWhere = await checkAccess(ctx, collection, 'read');
  const locale = localeOf(ctx);
  const where = andParts([compileWhere(collection, accessWhere, locale, { trusted: true }), compileWhere(collection, args.where, locale)]);
  const orderBy = compileSort(collection, args.sort, locale);
  const totalDocs = countRows(ctx.cms.sqlite, collection, where);
  const rows = totalDocs === 0 ? [] : selectRows(ctx.cms.sqlite, collection, where, orderBy, limit, (page - 1) * limit);
  let stored = rows.map((r) => rowToDoc(collection, r));
  if (args.draft && collection.drafts && (ctx.user || ctx.overrideAccess)) stored = overlayDrafts(ctx.cms, collection, stored);
  const docs = await presentDocs(ctx, collection, stored, args.depth ?? 1);
  const totalPages = Math.max(1, Math.ceil(totalDocs / limit));
  return {
    docs,
    totalDocs,
    limit,
    page,
    totalPages,
    pagingCounter: (page - 1) * limit + 1,
    hasNextPage: page < totalPages,
    hasPrevPage: page > 1,
    nextPage: page < totalPages ? page + 1 : null,
    prevPage: page > 1 ? page - 1 : null,
  };
}
