/**
 * Document locks for the admin (docs/content-model.md): `GET`, `POST` (take, heartbeat, or
 * `{ takeover: true }`) and `DELETE` on `/:collection/:id/lock` and `/globals/:slug/lock`. The lock token
 * travels in the `x-cms-lock-token` header, on these routes and on the admin's saves.
 */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { readLock, releaseLock, takeLock } from '../../operations/locks.ts';
import type { DocumentRef } from '../../operations/steps/document-target.ts';
import { readJSON } from '../body.ts';
import { methods } from '../handle.ts';

export const LOCK_TOKEN_HEADER = 'x-cms-lock-token';

export function lockTokenOf(request: Request): string | undefined {
  return request.headers.get(LOCK_TOKEN_HEADER) || undefined;
}

function lockRoutesAt(cms: CMS, path: string, refOf: (p: Record<string, string>) => DocumentRef) {
  return new RouteList().all(
    path,
    methods(cms, {
      GET: async ({ ctx, params, request }) => ({ body: await readLock(ctx, refOf(params), lockTokenOf(request)) }),
      POST: async ({ ctx, params, request }) => {
        const body = request.headers.get('content-length') === '0' ? {} : await readJSON(request).catch(() => ({}));
        const takeover =
          typeof body === 'object' && body !== null && (body as Record<string, unknown>).takeover === true;
        return { body: await takeLock(ctx, refOf(params), { token: lockTokenOf(request), takeover }) };
      },
      DELETE: async ({ ctx, params, request }) => ({
        body: await releaseLock(ctx, refOf(params), lockTokenOf(request)),
      }),
    }),
  );
}

export function lockRoutes(cms: CMS) {
  return new RouteList()
    .use(lockRoutesAt(cms, '/globals/:slug/lock', (p) => ({ global: p.slug })))
    .use(lockRoutesAt(cms, '/:collection/:id/lock', (p) => ({ collection: p.collection, id: p.id })));
}
