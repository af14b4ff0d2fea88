/** REST for collection documents: list, create, read, update, delete. */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { create, deleteDocument, find, findByID, update } from '../../operations/index.ts';
import { readOptions } from '../../query/request-options.ts';
import { readJSON } from '../body.ts';
import { methods, type RouteInput } from '../handle.ts';
import { renewOwnSession } from './users.ts';

const draftFlag = (input: RouteInput) => input.query.draft === 'true';

export function collectionRoutes(cms: CMS) {
  return new Elysia()
    .all('/:collection', methods(cms, {
      GET: ({ ctx, query, params }) => {
        const o = readOptions(query, cms.config);
        return find(ctx, { collection: params.collection, where: o.where, sort: o.sort, limit: o.limit, page: o.page, depth: o.depth, draft: o.draft })
          .then((body) => ({ body }));
      },
      POST: async (input) => {
        const o = readOptions({ ...input.query, limit: undefined, page: undefined }, cms.config);
        const doc = await create(input.ctx, { collection: input.params.collection, data: await readJSON(input.request), depth: o.depth, draft: draftFlag(input) });
        // A new API key is shown once: in the document and, for clients that look there, beside it.
        const key = input.params.collection === 'api-keys' ? { key: doc.key } : {};
        return { status: 201, body: { doc, ...key, message: 'Successfully created.' } };
      },
    }, { writes: (p, method) => (method === 'POST' ? { collection: p.collection, action: 'create' } : null) }))
    .all('/:collection/:id', methods(cms, {
      GET: ({ ctx, query, params }) => {
        const o = readOptions({ ...query, limit: undefined, page: undefined }, cms.config);
        return findByID(ctx, { collection: params.collection, id: params.id, depth: o.depth, draft: o.draft, preview: o.preview }).then((body) => ({ body }));
      },
      PATCH: async (input) => {
        const o = readOptions({ ...input.query, limit: undefined, page: undefined }, cms.config);
        const data = await readJSON(input.request);
        const doc = await update(input.ctx, { collection: input.params.collection, id: input.params.id, data, depth: o.depth, draft: draftFlag(input) });
        const renewed = await renewOwnSession(cms, input, doc, data);
        return renewed ?? { body: { doc, message: 'Updated successfully.' } };
      },
      DELETE: async ({ ctx, params }) => {
        const doc = await deleteDocument(ctx, { collection: params.collection, id: params.id });
        return { body: { doc, message: 'Deleted successfully.' } };
      },
    }, { writes: (p, method) => (method === 'PATCH' ? { collection: p.collection, id: p.id, action: 'update' } : null) }));
}
