/**
 * REST for drafts, versions, scheduling and live preview (docs/drafts-and-versions.md),
 * the same routes under `/:collection/:id/…` and `/globals/:slug/…`. Registered before the collection
 * routes so `/:collection/preview` is not read as a document id.
 */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { readOptions } from '../../query/request-options.ts';
import type { DocumentRef } from '../../operations/steps/document-target.ts';
import { findVersionByID, findVersions } from '../../operations/find-versions.ts';
import { restoreVersion } from '../../operations/restore-version.ts';
import { unpublish } from '../../operations/unpublish.ts';
import { discardDraft } from '../../operations/discard-draft.ts';
import { cancelScheduled, listScheduled, scheduleAction } from '../../operations/schedule.ts';
import { previewDocument } from '../../operations/preview.ts';
import {
  findCollectionVersionByID,
  findCollectionVersions,
  restoreCollectionVersion,
} from '../../operations/collection-versions.ts';
import { readJSON } from '../body.ts';
import { ownOrigin } from '../client-ip.ts';
import { methods, type RouteInput } from '../handle.ts';

type RefOf = (params: Record<string, string>) => DocumentRef;

export function versionRoutes(cms: CMS) {
  return new RouteList()
    .use(documentRoutes(cms, '/globals/:slug', (p) => ({ global: p.slug })))
    .use(documentRoutes(cms, '/:collection/:id', (p) => ({ collection: p.collection, id: p.id })))
    .use(collectionVersionRoutes(cms))
    .all(
      '/:collection/preview',
      methods(
        cms,
        {
          POST: async (input) => ({
            body: await previewDocument(input.ctx, {
              collection: input.params.collection,
              data: await readJSON(input.request),
              depth: depthOf(cms, input),
              origin: ownOrigin(cms.config, input.request),
            }),
          }),
        },
        { writes: (p) => ({ collection: p.collection, action: 'create' }) },
      ),
    );
}

/** `?author=true` adds who saved each version to the records (the admin's version list asks for it). */
const withAuthor = (query: Record<string, unknown>) => query.author === 'true';

function depthOf(cms: CMS, input: RouteInput): number {
  return readOptions({ ...input.query, limit: undefined, page: undefined }, cms.config).depth;
}

/** Payload's paths (docs/payload-compatibility.md): versions across a collection, one by its id, and restoring it with POST. */
function collectionVersionRoutes(cms: CMS) {
  return new RouteList()
    .all(
      '/:collection/versions',
      methods(cms, {
        GET: async ({ ctx, query, params }) => {
          const o = readOptions(query, cms.config);
          return {
            body: await findCollectionVersions(ctx, {
              collection: params.collection,
              where: o.where,
              sort: o.sort,
              limit: o.limit,
              page: o.page,
              depth: o.depth,
              author: withAuthor(query),
            }),
          };
        },
      }),
    )
    .all(
      '/:collection/versions/:version',
      methods(cms, {
        GET: async (input) => ({
          body: await findCollectionVersionByID(input.ctx, {
            collection: input.params.collection,
            version: input.params.version,
            depth: depthOf(cms, input),
            author: withAuthor(input.query),
          }),
        }),
        POST: async (input) => {
          const doc = await restoreCollectionVersion(input.ctx, {
            collection: input.params.collection,
            version: input.params.version,
            depth: depthOf(cms, input),
          });
          return { body: { doc, message: 'Version restored.' } };
        },
      }),
    );
}

function documentRoutes(cms: CMS, prefix: string, refOf: RefOf) {
  // The routes below that read a body need update access to the document: refused callers are answered first.
  const updatesBody = (params: Record<string, string>, method: string) =>
    method === 'POST' ? { ...refOf(params), action: 'update' as const } : null;
  const restore = async (input: RouteInput) => {
    const doc = await restoreVersion(input.ctx, {
      ...refOf(input.params),
      version: input.params.version,
      depth: depthOf(cms, input),
    });
    return { body: { doc, message: 'Version restored.' } };
  };
  return new RouteList()
    .all(
      `${prefix}/versions`,
      methods(cms, {
        GET: async ({ ctx, query, params }) => {
          const o = readOptions(query, cms.config);
          return {
            body: await findVersions(ctx, {
              ...refOf(params),
              where: o.where,
              sort: o.sort,
              limit: o.limit,
              page: o.page,
              depth: o.depth,
              author: withAuthor(query),
            }),
          };
        },
      }),
    )
    .all(
      `${prefix}/versions/:version`,
      methods(cms, {
        GET: async (input) => ({
          body: await findVersionByID(input.ctx, {
            ...refOf(input.params),
            version: input.params.version,
            depth: depthOf(cms, input),
            author: withAuthor(input.query),
          }),
        }),
        // Payload restores a global's version with POST on the version's own path (docs/payload-compatibility.md).
        ...(prefix.startsWith('/globals') ? { POST: restore } : {}),
      }),
    )
    .all(`${prefix}/versions/:version/restore`, methods(cms, { POST: restore }))
    .all(
      `${prefix}/unpublish`,
      methods(cms, {
        POST: async (input) => ({
          body: {
            doc: await unpublish(input.ctx, { ...refOf(input.params), depth: depthOf(cms, input) }),
            message: 'Unpublished.',
          },
        }),
      }),
    )
    .all(
      `${prefix}/discard-draft`,
      methods(cms, {
        POST: async (input) => ({
          body: {
            doc: await discardDraft(input.ctx, { ...refOf(input.params), depth: depthOf(cms, input) }),
            message: 'Draft discarded.',
          },
        }),
      }),
    )
    .all(
      `${prefix}/schedule`,
      methods(
        cms,
        {
          GET: async ({ ctx, params }) => ({ body: await listScheduled(ctx, refOf(params)) }),
          POST: async ({ ctx, params, request }) => {
            const body = await readJSON(request);
            const { action, at } = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
            return { status: 201, body: { doc: await scheduleAction(ctx, { ...refOf(params), action, at }) } };
          },
        },
        { writes: updatesBody },
      ),
    )
    .all(
      `${prefix}/schedule/:job`,
      methods(cms, {
        DELETE: async ({ ctx, params }) => ({
          body: {
            doc: await cancelScheduled(ctx, { ...refOf(params), job: params.job }),
            message: 'Scheduled job cancelled.',
          },
        }),
      }),
    )
    .all(
      `${prefix}/preview`,
      methods(
        cms,
        {
          POST: async (input) => ({
            body: await previewDocument(input.ctx, {
              ...refOf(input.params),
              data: await readJSON(input.request),
              depth: depthOf(cms, input),
              origin: ownOrigin(cms.config, input.request),
              release: input.query.release,
            }),
          }),
        },
        { writes: updatesBody },
      ),
    );
}
