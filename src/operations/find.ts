/** Lists documents: access filter merged into the SQL, then where, sort, pagination, population. */
import { rowToDoc } from '../fields/row.ts';
import { countRows, selectRows } from '../db/documents.ts';
import { andParts } from '../db/store.ts';
import { compileSort } from '../query/sort.ts';
import { compileWhere, TRUSTED } from '../query/where.ts';
import { DEFAULT_LIMIT } from '../query/request-options.ts';
import { checkPaging, MAX_LIMIT, pageInfo } from '../query/page-info.ts';
import type { SanitizedCollection, Where } from '../config/types.ts';
import { checkAccess } from '../access/check-access.ts';
import { queryRights, relatedQueries } from '../access/query-rights.ts';
import { getCollection } from './steps/entities.ts';
import { checkListSize } from './steps/document-budget.ts';
import { presentDocs } from './steps/present.ts';
import { localeOf, type OperationContext } from '../operation-context.ts';
import { draftSource } from '../versions/draft-source.ts';
import { readShapeOf, type ShapeArgs } from './steps/read-shape.ts';
import { matchFilter, rankedPage, type Ranked } from '../search/ranked-matches.ts';
import type { Row } from '../db/store.ts';
import { withoutTrashed } from './trash.ts';
import { parseJoins } from '../query/join-options.ts';
import { dependenciesOf } from '../cache/dependencies.ts';
import { openReleases, releaseRows, type ReleaseArgs } from './steps/release-preview.ts';

/** A page of documents in the order the search ranked them. */
const byRank = (rows: Row[], ranked: Ranked) => {
  const position = new Map(ranked.map((r, i) => [r.docId, i]));
  return rows.sort((a, b) => position.get(a.id as number)! - position.get(b.id as number)!);
};

export type FindArgs = ShapeArgs &
  ReleaseArgs & {
    collection: string;
    where?: Where;
    sort?: string;
    limit?: number;
    page?: number;
    depth?: number;
    draft?: boolean;
    /** false: every matching document in one answer (docs/payload-compatibility.md). */
    pagination?: boolean;
    /** Full-text search terms (docs/search.md): only matching documents, best first unless `sort` is given. */
    search?: string;
    /** Trashed documents too (docs/trash.md); `where[deletedAt][exists]=true` narrows to them. */
    trash?: boolean;
    /** The largest `limit` taken: REST's 100 unless the transport bounds pages otherwise (GraphQL: by cost). */
    maxLimit?: number;
  };
export type CountArgs = ReleaseArgs & { collection: string; where?: Where; draft?: boolean; trash?: boolean };

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

/**
 * What a read of the collection matches: the read filter (the config's own, so it may name any field),
 * the caller's where (which may not name fields the caller cannot read, or it would reveal them), and for
 * logged-in `draft=true` reads the pending drafts' content as the source, for `releases` (opened by
 * openReleases) the live rows as those releases would leave them. Find, count and the bulk writes all match
 * through here.
 */
export async function matchDocuments(
  ctx: OperationContext,
  collection: SanitizedCollection,
  args: { where?: Where; draft?: boolean; trash?: boolean; releases?: number[] },
) {
  const accessWhere = withoutTrashed(collection, await checkAccess(ctx, collection, 'read'), args.trash);
  const locale = localeOf(ctx);
  const { dialect } = ctx.cms.store;
  const rights = await queryRights(ctx, collection);
  const related = await relatedQueries(ctx, collection, args.where, locale);
  const where = andParts([
    compileWhere(dialect, collection, accessWhere, locale, TRUSTED),
    compileWhere(dialect, collection, args.where, locale, rights, related),
  ]);
  const from = args.releases
    ? await releaseRows(ctx, collection, args.releases)
    : args.draft && collection.drafts && (ctx.user || ctx.overrideAccess)
      ? draftSource(dialect, collection)
      : null;
  return { where, from, rights, locale };
}

export async function find(caller: OperationContext, args: FindArgs): Promise<PaginatedDocs> {
  const collection = getCollection(caller.cms, args.collection);
  const opened = args.release === undefined ? null : await openReleases(caller, args);
  const ctx = opened?.ctx ?? caller;
  const paginate = args.pagination !== false;
  const limit = args.limit ?? DEFAULT_LIMIT;
  const page = paginate ? (args.page ?? 1) : 1;
  if (paginate) checkPaging(limit, page, args.maxLimit);
  const matched = await matchDocuments(ctx, collection, { ...args, releases: opened?.ids });
  const { from, rights, locale } = matched;
  const { store } = ctx.cms;
  const searched = args.search === undefined ? null : args.search;
  const where =
    searched !== null && args.sort !== undefined
      ? andParts([matched.where, await matchFilter(ctx, collection, searched, matched)])
      : matched.where;
  const orderBy = compileSort(store.dialect, collection, args.sort, locale, rights, args.where, collection.defaultSort);
  const shape = await readShapeOf(ctx, collection, args, rights);
  const offset = paginate ? (page - 1) * limit : 0;
  /** A list whose size REST's page bound does not hold (a whole list, a large GraphQL page) is checked once counted. */
  const checkSize = (total: number) => {
    if (!paginate) checkListSize(ctx, total);
    else if (limit > MAX_LIMIT) checkListSize(ctx, Math.min(limit, Math.max(0, total - offset)));
  };
  let totalDocs: number;
  let rows: Row[];
  if (searched !== null && args.sort === undefined) {
    // Best first: the page of matches is ranked (and counted) before any document row is read.
    const { ranked, total } = await rankedPage(
      ctx,
      collection,
      searched,
      matched,
      paginate ? limit : null,
      offset,
      dependenciesOf(ctx.cms.config, collection),
    );
    totalDocs = total;
    checkSize(totalDocs);
    rows = ranked.length
      ? byRank(
          await selectRows(
            store,
            collection,
            andParts([
              where,
              store.dialect.inList(
                '"id"',
                ranked.map((r) => r.docId),
              ),
            ]),
            orderBy,
            null,
            0,
            from,
          ),
          ranked,
        )
      : [];
  } else {
    const dependsOn = dependenciesOf(ctx.cms.config, collection);
    totalDocs = await countRows(store, collection, where, from, dependsOn);
    checkSize(totalDocs);
    rows =
      totalDocs === 0
        ? []
        : await selectRows(store, collection, where, orderBy, paginate ? limit : null, offset, from, dependsOn);
  }
  const stored = rows.map((r) => rowToDoc(collection, r));
  const docs = await presentDocs(ctx, collection, stored, args.depth ?? 1, shape, parseJoins(args.joins));
  // A whole list is one page holding every document.
  return {
    docs,
    ...(paginate
      ? pageInfo(totalDocs, limit, page)
      : { ...pageInfo(totalDocs, Math.max(totalDocs, 1), 1), limit: totalDocs }),
  };
}

/** `{ totalDocs }` of what the same find would list, under the same read filter (docs/payload-compatibility.md). */
export async function count(caller: OperationContext, args: CountArgs): Promise<{ totalDocs: number }> {
  const collection = getCollection(caller.cms, args.collection);
  const opened = args.release === undefined ? null : await openReleases(caller, args);
  const ctx = opened?.ctx ?? caller;
  const { where, from } = await matchDocuments(ctx, collection, { ...args, releases: opened?.ids });
  return {
    totalDocs: await countRows(ctx.cms.store, collection, where, from, dependenciesOf(ctx.cms.config, collection)),
  };
}
