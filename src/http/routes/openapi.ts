/**
 * `GET /openapi.json` (docs/openapi.md): the instance's OpenAPI 3.1 document, public like the routes it describes,
 * without the fields the caller may not read.
 * The generator loads on the first request for the document, not at start.
 */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { methods } from '../handle.ts';
import { fieldAllowed } from '../../access/check-access.ts';

export function openAPIRoutes(cms: CMS) {
  return new RouteList().all(
    '/openapi.json',
    methods(
      cms,
      {
        GET: async ({ ctx }) => {
          const [{ openAPIText }, { refusedFields }] = await Promise.all([
            import('../../openapi/document.ts'),
            import('../../openapi/caller-view.ts'),
          ]);
          const refused = await refusedFields(cms.config, (rule) => fieldAllowed(ctx, rule, {}));
          // The document depends on who asks: shared caches must not hand one caller's to another.
          const control = ctx.user ? 'private, no-cache' : 'no-cache';
          return new Response(openAPIText(cms.config, refused), {
            headers: {
              'content-type': 'application/json; charset=utf-8',
              'cache-control': control,
              vary: 'Authorization, Cookie',
            },
          });
        },
      },
      { csrf: false },
    ),
  );
}
