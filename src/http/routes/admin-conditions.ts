/**
 * `POST /_admin/conditions/:collection` and `POST /_admin/conditions/globals/:slug` with `{ data }` (the
 * form as it is being edited): which fields with an `admin.condition` are shown, as
 * `{ visible: { <path>: boolean } }`. Conditions are functions of the config, so they run here rather than
 * in the browser (docs/content-model.md). Logged-in users only; nothing is read or written.
 */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import type { Entity } from '../../config/types.ts';
import { badRequest, notFound, unauthorized } from '../../errors.ts';
import { fieldVisibility } from '../../fields/conditions.ts';
import { readJSON } from '../body.ts';
import { methods, type RouteInput } from '../handle.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

async function answer(input: RouteInput, entity: Entity | undefined) {
  if (!input.credentials.user) throw unauthorized();
  if (!entity) throw notFound('Unknown collection or global.');
  const body = await readJSON(input.request);
  const data = isObject(body) && isObject(body.data) ? body.data : body;
  if (!isObject(data)) throw badRequest("The body must be { data: { …the form's values } }.", 'data');
  return { body: { visible: fieldVisibility(entity.fields, data) } };
}

export function adminConditionRoutes(cms: CMS) {
  return new RouteList()
    .all(
      '/_admin/conditions/globals/:slug',
      methods(cms, { POST: (input) => answer(input, cms.config.globalsBySlug.get(input.params.slug)) }),
    )
    .all(
      '/_admin/conditions/:collection',
      methods(cms, { POST: (input) => answer(input, cms.config.collectionsBySlug.get(input.params.collection)) }),
    );
}
