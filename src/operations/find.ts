/** Lists documents: access filter merged into the SQL, then where, sort, pagination, population. */
import { rowToDoc } from '../fields/row.ts';
import { countRows, selectRows } from '../db/documents.ts';
import { compileSort, compileWhere, TRUSTED, type SQLPart } from '../query/where.ts';
import { DEFAULT_LIMIT } from '../query/request-options.ts';
import { checkPaging, pageInfo } from '../query/page-info.ts';
import type { Where } from '../config/types.ts';
import { checkAccess } from '../access/check-access.ts';
import { queryRights } from '../access/query-rights.ts';
import { getCollection } from './entities.ts';
import { presentDocs } from './present.ts';
import { localeOf, type OperationContext } from './context.ts';
import { draftSource } from '../versions/draft-source.ts';

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
  checkPaging(limit, page);
  const accessWhere = await checkAccess(ctx, collection, 'read');
  const locale = localeOf(ctx);
  const { store } = ctx.cms;
  // The access filter is the config's own and may name any field; the caller's where and sort may not
  // name fields it cannot read, or they would reveal them.
  const rights = await queryRights(ctx, collection);
  const where = andParts([compileWhere(store.dialect, collection, accessWhere, locale, TRUSTED), compileWhere(store.dialect, collection, args.where, locale, rights)]);
  const orderBy = compileSort(store.dialect, collection, args.sort, locale, rights);
  // Logged-in `draft=true` reads see pending drafts: filters, sort and count run on the draft content.
  const from = args.draft && collection.drafts && (ctx.user || ctx.overrideAccess) ? draftSource(store.dialect, collection) : null;
  const totalDocs = await countRows(store, collection, where, from);
  const rows = totalDocs === 0 ? [] : await selectRows(store, collection, where, orderBy, limit, (page - 1) * limit, from);
  const stored = rows.map((r) => rowToDoc(collection, r));
  const docs = await presentDocs(ctx, collection, stored, args.depth ?? 1);
  return { docs, ...pageInfo(totalDocs, limit, page) };
}
