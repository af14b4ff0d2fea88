/**
 * `near` on a point field: documents within a distance of a longitude and latitude, and, when no `sort` is
 * asked for, nearest first. Points take `near` and `exists` only.
 */
import { badRequest } from '../errors.ts';
import type { Dialect, SQLPart } from '../db/store.ts';
import type { Target } from './field-target.ts';
import { isObject, MAX_DEPTH } from './limits.ts';

/** Refuses `near` on what is not a point, a point inside rows, and any other operator on a point than `near` and `exists`. */
export function checkPointOperator(target: Target, operator: string, key: string): void {
  if (target.kind !== 'point') throw badRequest(`"near" works only on point fields; "${key}" is not one.`, key);
  if (target.rows.length)
    throw badRequest(`"${key}" is inside rows; points are queried at the top or inside groups.`, key);
  if (operator !== 'near' && operator !== 'exists')
    throw badRequest(`A point takes "near" or "exists", not "${operator}".`, key);
}

/** Within the distance asked for (any distance when none is). */
export function nearCondition(dialect: Dialect, target: Target, operand: unknown, key: string): SQLPart {
  const near = parseNear(operand, key);
  const distance = dialect.distanceMeters(target.expr, near.lng, near.lat);
  const within = near.maxDistance === null ? `${distance} IS NOT NULL` : `${distance} <= ?`;
  const params: unknown[] = near.maxDistance === null ? [] : [near.maxDistance];
  if (near.minDistance !== null) params.push(near.minDistance);
  return { sql: near.minDistance === null ? within : `(${within} AND ${distance} >= ?)`, params };
}

type Near = { lng: number; lat: number; maxDistance: number | null; minDistance: number | null };

/** `<lng>,<lat>[,<maxDistance m>[,<minDistance m>]]` (a string or a list). */
export function parseNear(operand: unknown, key: string): Near {
  const parts = (Array.isArray(operand) ? operand : String(operand ?? '').split(',')).map((p) => String(p).trim());
  const numbers = parts.map((p) => (p === '' || p === 'null' ? null : Number(p)));
  const [lng, lat, max = null, min = null] = numbers;
  const bad = parts.length < 2 || parts.length > 4 || numbers.some((n) => n !== null && !Number.isFinite(n));
  if (
    bad ||
    lng === null ||
    lat === null ||
    Math.abs(lng) > 180 ||
    Math.abs(lat) > 90 ||
    (max !== null && max < 0) ||
    (min !== null && min < 0)
  ) {
    throw badRequest(`"near" on "${key}" takes <longitude>,<latitude>,<maxDistance in m>[,<minDistance in m>].`, key);
  }
  return { lng, lat, maxDistance: max, minDistance: min };
}

/** The first `near` condition of a where (at its top or in its `and` lists), which orders results nearest first. */
export function findNear(where: unknown, depth = 0): { path: string; near: unknown } | null {
  if (!isObject(where) || depth > MAX_DEPTH) return null;
  for (const [key, value] of Object.entries(where)) {
    if (key === 'and') {
      for (const item of Array.isArray(value) ? value : isObject(value) ? Object.values(value) : []) {
        const found = findNear(item, depth + 1);
        if (found) return found;
      }
    } else if (key !== 'or' && isObject(value) && 'near' in value) {
      return { path: key, near: value.near };
    }
  }
  return null;
}
