/**
 * REST for releases (docs/releases.md): the records, their items, and publishing. No paths at all unless
 * `releases: true`, so `/releases` is then an unknown collection's 404. Registered before the collection
 * routes. Bodies are small (a title, one item), so they are read with a small limit.
 */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { readOptions } from '../../query/request-options.ts';
import { createRelease } from '../../operations/releases/create-release.ts';
import { findReleaseByID, findReleases } from '../../operations/releases/find-releases.ts';
import { changeRelease, removeRelease } from '../../operations/releases/change-release.ts';
import { addReleaseItem, removeReleaseItem } from '../../operations/releases/release-items.ts';
import { publishRelease } from '../../operations/releases/publish-release.ts';
import { revertRelease } from '../../operations/releases/revert-release.ts';
import { scheduleRelease, unscheduleRelease } from '../../operations/releases/schedule-release.ts';
import { previewRelease } from '../../operations/releases/preview-release.ts';
import { readJSON } from '../body.ts';
import { methods, type RouteInput } from '../handle.ts';

const RELEASE_BODY_LIMIT = 64 * 1024;
const body = (input: RouteInput) => readJSON(input.request, RELEASE_BODY_LIMIT);
const noStore = { 'cache-control': 'no-store' };

export function releaseRoutes(cms: CMS) {
  if (!cms.config.releases) return new RouteList();
  return new RouteList()
    .all(
      '/releases',
      methods(cms, {
        GET: async ({ ctx, query }) => {
          const { where, sort, limit, page } = readOptions(query, cms.config);
          return { body: await findReleases(ctx, { where, sort, limit, page }), headers: noStore };
        },
        POST: async (input) => ({ status: 201, body: { doc: await createRelease(input.ctx, await body(input)) } }),
      }),
    )
    .all(
      '/releases/:id',
      methods(cms, {
        GET: async ({ ctx, params }) => ({ body: await findReleaseByID(ctx, params.id), headers: noStore }),
        PATCH: async (input) => ({
          body: {
            doc: await changeRelease(input.ctx, input.params.id, await body(input)),
            message: 'Release updated.',
          },
        }),
        DELETE: async ({ ctx, params }) => ({
          body: { doc: await removeRelease(ctx, params.id), message: 'Release deleted.' },
        }),
      }),
    )
    .all(
      '/releases/:id/items',
      methods(cms, {
        POST: async (input) => ({ body: { doc: await addReleaseItem(input.ctx, input.params.id, await body(input)) } }),
      }),
    )
    .all(
      '/releases/:id/items/:item',
      methods(cms, {
        DELETE: async ({ ctx, params }) => ({ body: { doc: await removeReleaseItem(ctx, params.id, params.item) } }),
      }),
    )
    .all(
      '/releases/:id/publish',
      methods(cms, {
        POST: async ({ ctx, params }) => ({ body: { doc: await publishRelease(ctx, params.id) } }),
      }),
    )
    .all(
      '/releases/:id/schedule',
      methods(cms, {
        POST: async (input) => ({
          body: { doc: await scheduleRelease(input.ctx, input.params.id, await body(input)) },
        }),
      }),
    )
    .all(
      '/releases/:id/unschedule',
      methods(cms, {
        POST: async ({ ctx, params }) => ({ body: { doc: await unscheduleRelease(ctx, params.id) } }),
      }),
    )
    .all(
      '/releases/:id/revert',
      methods(cms, {
        POST: async ({ ctx, params }) => ({ status: 201, body: { doc: await revertRelease(ctx, params.id) } }),
      }),
    )
    .all(
      '/releases/:id/preview',
      methods(cms, {
        POST: async ({ ctx, params }) => ({ body: await previewRelease(ctx, params.id), headers: noStore }),
      }),
    );
}
