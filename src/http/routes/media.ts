/** REST for uploads: `POST /media` (multipart/form-data) and `GET /media/file/:name` (public). Other media routes are the collection routes. */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { upload } from '../../operations/index.ts';
import { readOptions } from '../../query/request-options.ts';
import { notFound } from '../../errors.ts';
import { receiveMultipart } from '../../uploads/multipart.ts';
import { findStoredFile } from '../../uploads/media-files.ts';
import { fileResponse } from '../../uploads/file-response.ts';
import { methods } from '../handle.ts';
import { bodyReceived } from '../long-requests.ts';
import { listRoute } from './collections.ts';
import { MEDIA_SLUG } from '../../config/builtin-collections.ts';

export function mediaRoutes(cms: CMS) {
  return new Elysia()
    // Only POST is claimed here; GET /media and the other methods fall through to the collection routes.
    // The list is here too for a POST that is a read (method override, src/http/method-override.ts).
    .post('/media', methods(cms, {
      GET: listRoute(cms, MEDIA_SLUG),
      POST: async ({ ctx, request, query }) => {
        const o = readOptions({ ...query, limit: undefined, page: undefined }, cms.config);
        const doc = await upload(ctx, { receive: (limits) => receiveMultipart(request, limits).finally(() => bodyReceived(request)), depth: o.depth });
        return { status: 201, body: { doc, message: 'Successfully uploaded.' } };
      },
    }, { writes: () => ({ collection: MEDIA_SLUG, action: 'create' }) }))
    .all('/media/file/:name', methods(cms, {
      GET: async ({ request, params }) => {
        const found = await findStoredFile(cms, params.name);
        if (!found) throw notFound('File not found.');
        const stored = await cms.storage.get(found.key);
        if (!stored) {
          cms.log.warn(`media: "${found.key}" is in the database but missing from storage`);
          throw notFound('File not found.');
        }
        return fileResponse(request, found.key, found.mimeType, stored);
      },
    }, { csrf: false }));
}
