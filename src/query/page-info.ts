/** The list shape's paging fields (docs/documents.md), and the 400s for a `limit` or `page` out of range. */
import { badRequest } from '../errors.ts';

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 100;

/** Above this, `(page - 1) * limit` is no longer an exact integer, and SQLite refuses the OFFSET. */
const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_LIMIT);

/** `maxLimit`: REST's 100, or none for GraphQL, whose cost measure bounds its pages (docs/graphql.md). */
export function checkPaging(limit: number, page: number, maxLimit = MAX_LIMIT): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit)
    throw badRequest(
      maxLimit === Infinity ? '"limit" must be 1 or more.' : `"limit" must be between 1 and ${maxLimit}.`,
      'limit',
    );
  if (!Number.isInteger(page) || page < 1) throw badRequest('"page" must be 1 or more.', 'page');
  const maxPage = limit <= MAX_LIMIT ? MAX_PAGE : Math.floor(Number.MAX_SAFE_INTEGER / limit);
  if (page > maxPage) throw badRequest(`"page" must be at most ${maxPage}.`, 'page');
}

export function pageInfo(totalDocs: number, limit: number, page: number) {
  const totalPages = Math.max(1, Math.ceil(totalDocs / limit));
  return {
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
