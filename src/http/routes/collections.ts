/** REST for collection documents: list, create, read, update, delete, duplicate. */
import { isUploadCollection } from '../../config/upload-collections.ts';
import { RouteList } from './route-list.ts';
import { lockTokenOf } from './locks.ts';
import type { CMS } from '../../cms.ts';
import {
  count,
  create,
  deleteDocument,
  deleteMany,
  duplicate,
  find,
  findByID,
  replaceUpload,
  update,
  updateMany,
} from '../../operations/index.ts';
import { receiveMultipart } from '../../uploads/multipart.ts';
import { readOptions } from '../../query/request-options.ts';
import { isMultipart, readDocumentBody, readJSON } from '../body.ts';
import { methods, type Route, type RouteInput } from '../handle.ts';
import { renewOwnSession } from './users.ts';
import { cachedRead } from '../cached-read.ts';

const draftFlag = (input: RouteInput) => input.query.draft === 'true';
/** Payload's `trash=true`: trashed documents count too (docs/trash.md). */
const trashFlag = (input: RouteInput) => input.query.trash === 'true';
const bulkMessage = (verb: string, result: { docs: unknown[]; errors: unknown[] }) =>
  `${verb} ${result.docs.length} of ${result.docs.length + result.errors.length} documents.`;

/** The list; also `GET /media`, whose POST is the upload route (src/http/routes/media.ts). */
export function listRoute(cms: CMS, slug?: string): Route {
  return (input) => {
    const collection = slug ?? input.params.collection;
    // Options are parsed inside: an answer served from the cache was made from the same, valid, query.
    return cachedRead(input, cms.config.collectionsBySlug.get(collection), () => {
      const { where, sort, limit, page, depth, draft, select, populate, joins, pagination, richText } = readOptions(
        input.query,
        cms.config,
      );
      const search = input.query.search === undefined ? undefined : String(input.query.search);
      return find(input.ctx, {
        collection,
        release: input.query.release,
        preview: typeof input.query.preview === 'string' ? input.query.preview : undefined,
        where,
        sort,
        limit,
        page,
        depth,
        draft,
        select,
        populate,
        joins,
        pagination,
        search,
        richText,
        trash: trashFlag(input),
      });
    });
  };
}

export function collectionRoutes(cms: CMS) {
  return new RouteList()
    .all(
      '/:collection/count',
      methods(cms, {
        GET: (input) => {
          const collection = input.params.collection;
          return cachedRead(input, cms.config.collectionsBySlug.get(collection), () => {
            const { where, draft, preview } = readOptions(input.query, cms.config);
            const release = input.query.release;
            return count(input.ctx, { collection, where, draft, release, preview, trash: trashFlag(input) });
          });
        },
      }),
    )
    .all(
      '/:collection',
      methods(
        cms,
        {
          GET: listRoute(cms),
          POST: async (input) => {
            const o = readOptions({ ...input.query, limit: undefined, page: undefined }, cms.config);
            const doc = await create(input.ctx, {
              collection: input.params.collection,
              data: await readDocumentBody(input.request, cms.config.collectionsBySlug.get(input.params.collection)),
              depth: o.depth,
              draft: draftFlag(input),
            });
            // A new API key, or an invitation link, is shown once: in the document and, for clients that look there, beside it.
            const shown =
              input.params.collection === 'api-keys'
                ? { key: doc.key }
                : doc.inviteUrl
                  ? { inviteUrl: doc.inviteUrl }
                  : {};
            return { status: 201, body: { doc, ...shown, message: 'Successfully created.' } };
          },
          // Bulk writes by `where` (docs/payload-compatibility.md): the single-document operation on each matching document.
          PATCH: async (input) => {
            const o = readOptions({ ...input.query, limit: undefined, page: undefined }, cms.config);
            const result = await updateMany(input.ctx, {
              collection: input.params.collection,
              where: o.where!,
              data: await readDocumentBody(input.request, cms.config.collectionsBySlug.get(input.params.collection)),
              depth: o.depth,
              draft: draftFlag(input),
              trash: trashFlag(input),
            });
            return { body: { ...result, message: bulkMessage('Updated', result) } };
          },
          DELETE: async (input) => {
            const o = readOptions({ ...input.query, limit: undefined, page: undefined }, cms.config);
            const result = await deleteMany(input.ctx, {
              collection: input.params.collection,
              where: o.where!,
              depth: o.depth,
              draft: draftFlag(input),
              trash: trashFlag(input),
            });
            return { body: { ...result, message: bulkMessage('Deleted', result) } };
          },
        },
        {
          writes: (p, method) =>
            method === 'POST'
              ? { collection: p.collection, action: 'create' }
              : method === 'PATCH'
                ? { collection: p.collection, action: 'update' }
                : null,
        },
      ),
    )
    .all(
      '/:collection/:id/duplicate',
      methods(
        cms,
        {
          // Payload's duplicate: the body, when given, holds values to change in the copy.
          POST: async (input) => {
            const o = readOptions({ ...input.query, limit: undefined, page: undefined }, cms.config);
            const doc = await duplicate(input.ctx, {
              collection: input.params.collection,
              id: input.params.id,
              data: await readJSON(input.request),
              depth: o.depth,
            });
            return { body: { doc, message: 'Successfully duplicated.' } };
          },
        },
        { writes: (p) => ({ collection: p.collection, action: 'create' }) },
      ),
    )
    .all(
      '/:collection/:id',
      methods(
        cms,
        {
          GET: (input) => {
            const { collection, id } = input.params;
            return cachedRead(input, cms.config.collectionsBySlug.get(collection), () => {
              const { depth, draft, preview, select, populate, joins, richText } = readOptions(
                { ...input.query, limit: undefined, page: undefined },
                cms.config,
              );
              return findByID(input.ctx, {
                collection,
                id,
                release: input.query.release,
                depth,
                draft,
                preview,
                select,
                populate,
                joins,
                richText,
                data: input.unsaved,
                trash: trashFlag(input),
              });
            });
          },
          PATCH: async (input) => {
            const o = readOptions({ ...input.query, limit: undefined, page: undefined }, cms.config);
            // An upload collection takes a new file as multipart/form-data (Payload's `update({ file })`).
            const target = cms.config.collectionsBySlug.get(input.params.collection);
            if (target && isUploadCollection(target) && isMultipart(input.request)) {
              const doc = await replaceUpload(input.ctx, {
                collection: target.slug,
                id: input.params.id,
                receive: (limits) => receiveMultipart(input.request, limits),
                depth: o.depth,
              });
              return { body: { doc, message: 'Updated successfully.' } };
            }
            const data = await readDocumentBody(input.request, target);
            const doc = await update(input.ctx, {
              collection: input.params.collection,
              id: input.params.id,
              data,
              depth: o.depth,
              draft: draftFlag(input),
              autosave: input.query.autosave === 'true',
              lockToken: lockTokenOf(input.request),
              trash: trashFlag(input),
            });
            const renewed = await renewOwnSession(cms, input, doc, data);
            return renewed ?? { body: { doc, message: 'Updated successfully.' } };
          },
          DELETE: async (input) => {
            const { ctx, params } = input;
            const doc = await deleteDocument(ctx, {
              collection: params.collection,
              id: params.id,
              trash: trashFlag(input),
            });
            return { body: { doc, message: 'Deleted successfully.' } };
          },
        },
        {
          writes: (p, method) => (method === 'PATCH' ? { collection: p.collection, id: p.id, action: 'update' } : null),
        },
      ),
    );
}
