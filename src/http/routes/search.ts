/** `GET /search?q=…&collections=a,b&limit`: search across collections (docs/search.md). */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { readOptions } from '../../query/request-options.ts';
import { methods } from '../handle.ts';
import { searchEverywhere } from '../../operations/search-everywhere.ts';

export function searchRoutes(cms: CMS) {
  return new RouteList().all(
    '/search',
    methods(cms, {
      GET: async ({ ctx, query }) => {
        const { limit, draft } = readOptions({ ...query, page: undefined }, cms.config);
        return { body: await searchEverywhere(ctx, { q: query.q, collections: query.collections, limit, draft }) };
      },
    }),
  );
}
