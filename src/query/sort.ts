/** A `sort` → ORDER BY, on the same field targets a `where` reads. */
import { badRequest } from '../errors.ts';
import type { Dialect } from '../db/store.ts';
import type { Entity, Where } from '../config/types.ts';
import type { LocaleOptions } from '../fields/localize.ts';
import { resolveTarget } from './field-target.ts';
import { MAX_SORT_FIELDS } from './limits.ts';
import { findNear, parseNear } from './near.ts';
import { deniedOf, type QueryRights } from './where.ts';

/**
 * `-createdAt,title` → ORDER BY. A tiebreak on id keeps pages stable. Without a `sort`, a `near` in the
 * where orders nearest first, ahead of the collection's `defaultSort`.
 */
export function compileSort(
  dialect: Dialect,
  entity: Entity,
  asked: string | string[] | undefined,
  locale: LocaleOptions | null,
  rights: QueryRights,
  where?: Where | null,
  defaultSort?: string,
): string {
  const near = asked === undefined ? findNear(where) : null;
  const sort = asked ?? defaultSort;
  if (near) {
    // Nearest first when no sort is asked for (as Payload does); the where has already checked the path.
    const target = resolveTarget(dialect, entity, near.path, locale, deniedOf(rights));
    const { lng, lat } = parseNear(near.near, near.path);
    return `${dialect.distanceMeters(target.expr, lng, lat)} ASC, "id" ASC`;
  }
  const items = (Array.isArray(sort) ? sort : String(sort ?? '-createdAt').split(','))
    .map((s) => String(s).trim())
    .filter(Boolean);
  if (items.length === 0) items.push('-createdAt');
  if (items.length > MAX_SORT_FIELDS) throw badRequest(`"sort" takes at most ${MAX_SORT_FIELDS} fields.`, 'sort');
  const parts: string[] = [];
  let idDirection = 'DESC';
  for (const item of items) {
    const descending = item.startsWith('-');
    const name = item.replace(/^[-+]/, '');
    const target = resolveTarget(dialect, entity, name, locale, deniedOf(rights));
    if (target.many || target.rows.length || target.kind === 'point' || target.onlyExists)
      throw badRequest(`Cannot sort by "${name}".`, name);
    parts.push(`${target.expr} ${descending ? 'DESC' : 'ASC'}`);
    if (parts.length === 1) idDirection = descending ? 'DESC' : 'ASC';
    if (name === 'id') return parts.join(', ');
  }
  parts.push(`"id" ${idDirection}`);
  return parts.join(', ');
}
