/**
 * REST for upload collections (media and any collection with `upload`): `POST /:collection`
 * (multipart/form-data) and `GET /:collection/file/:name` (public). Other routes are the collection routes.
 */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import type { SanitizedCollection } from '../../config/types.ts';
import { isUploadCollection } from '../../config/upload-collections.ts';
import { upload } from '../../operations/index.ts';
import { readOptions } from '../../query/request-options.ts';
import { notFound } from '../../errors.ts';
import { receiveMultipart } from '../../uploads/multipart.ts';
import { findStoredFile } from '../../uploads/media-files.ts';
import { fileResponse } from '../file-response.ts';
import { methods } from '../handle.ts';
import { bodyReceived } from '../long-requests.ts';
import { listRoute } from './collections.ts';

export function mediaRoutes(cms: CMS) {
  const app = new RouteList();
  for (const collection of cms.config.collections.filter(isUploadCollection)) uploadRoutes(cms, app, collection);
  return app;
}

function uploadRoutes(cms: CMS, app: RouteList, collection: SanitizedCollection): void {
  const { slug } = collection;
  // Only POST is claimed here; GET /<slug> and the other methods fall through to the collection routes.
  // The list is here too for a POST that is a read (method override, src/http/method-override.ts).
  app.post(
    `/${slug}`,
    methods(
      cms,
      {
        GET: listRoute(cms, slug),
        POST: async ({ ctx, request, query }) => {
          const o = readOptions({ ...query, limit: undefined, page: undefined }, cms.config);
          const doc = await upload(ctx, {
            collection: slug,
            receive: (limits) => receiveMultipart(request, limits).finally(() => bodyReceived(request)),
            depth: o.depth,
          });
          return { status: 201, body: { doc, message: 'Successfully uploaded.' } };
        },
      },
      { writes: () => ({ collection: slug, action: 'create' }) },
    ),
  );
  app.all(
    `/${slug}/file/:name`,
    methods(
      cms,
      {
        GET: async ({ request, params }) => {
          const found = await findStoredFile(cms, collection, params.name);
          if (!found) throw notFound('File not found.');
          const stored = await cms.storage.get(found.key);
          if (!stored) {
            cms.log.warn(`${slug}: "${found.key}" is in the database but missing from storage`);
            throw notFound('File not found.');
          }
          return fileResponse(request, found.key, found.mimeType, stored);
        },
      },
      { csrf: false },
    ),
  );
}
