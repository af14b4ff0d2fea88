/** REST for globals: read (defaults until first saved) and update. */
import { RouteList } from './route-list.ts';
import { lockTokenOf } from './locks.ts';
import type { CMS } from '../../cms.ts';
import { findGlobal, updateGlobal } from '../../operations/index.ts';
import { readOptions } from '../../query/request-options.ts';
import { readDocumentBody } from '../body.ts';
import { methods } from '../handle.ts';
import { cachedRead } from '../cached-read.ts';

export function globalRoutes(cms: CMS) {
  return new RouteList().all(
    '/globals/:slug',
    methods(
      cms,
      {
        GET: (input) => {
          const slug = input.params.slug;
          return cachedRead(input, cms.config.globalsBySlug.get(slug), () => {
            const { depth, draft, preview, select, populate, richText } = readOptions(
              { ...input.query, limit: undefined, page: undefined },
              cms.config,
            );
            return findGlobal(input.ctx, {
              slug,
              release: input.query.release,
              depth,
              draft,
              preview,
              select,
              populate,
              richText,
              data: input.unsaved,
            });
          });
        },
        POST: async (input) => {
          const o = readOptions({ ...input.query, limit: undefined, page: undefined }, cms.config);
          const doc = await updateGlobal(input.ctx, {
            slug: input.params.slug,
            data: await readDocumentBody(input.request, cms.config.globalsBySlug.get(input.params.slug)),
            depth: o.depth,
            draft: input.query.draft === 'true',
            autosave: input.query.autosave === 'true',
            lockToken: lockTokenOf(input.request),
          });
          // `result` is where Payload's clients (the SDK's updateGlobal) read the saved global (docs/payload-compatibility.md).
          return { body: { doc, result: doc, message: 'Global saved.' } };
        },
      },
      { writes: (p, method) => (method === 'POST' ? { global: p.slug, action: 'update' } : null) },
    ),
  );
}
