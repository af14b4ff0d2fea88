/**
 * The `joins` read option (Payload's spelling): `joins=false` skips every join field;
 * `joins[<name>][limit|page|sort|where]` pages, sorts and filters one join's documents.
 */
import { badRequest } from '../errors.ts';
import type { Where } from '../config/types.ts';

export type JoinQuery = { limit?: number; page?: number; sort?: string; where?: Where };
/** false: no join is read; otherwise per join field name (missing names use the field's defaults). */
export type JoinRequest = false | Record<string, JoinQuery>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function whole(value: unknown, name: string, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw badRequest(`"${name}" must be a whole number from ${min} to ${max}.`, name);
  return n;
}

export function parseJoins(value: unknown): JoinRequest {
  if (value === undefined || value === '' || value === true || value === 'true') return {};
  if (value === false || value === 'false') return false;
  if (!isObject(value)) throw badRequest('"joins" takes false or joins[<field>][limit|page|sort|where].', 'joins');
  const out: Record<string, JoinQuery> = {};
  for (const [name, raw] of Object.entries(value)) {
    if (!isObject(raw)) throw badRequest(`"joins[${name}]" takes limit, page, sort or where.`, `joins.${name}`);
    for (const key of Object.keys(raw))
      if (!['limit', 'page', 'sort', 'where'].includes(key))
        throw badRequest(`Unknown join option "${key}".`, `joins.${name}.${key}`);
    let where = raw.where;
    if (typeof where === 'string') {
      try {
        where = JSON.parse(where);
      } catch {
        throw badRequest(`"joins[${name}][where]" must be an object.`, `joins.${name}.where`);
      }
    }
    if (where !== undefined && !isObject(where))
      throw badRequest(`"joins[${name}][where]" must be an object.`, `joins.${name}.where`);
    out[name] = {
      limit: whole(raw.limit, `joins.${name}.limit`, 1, 100),
      page: whole(raw.page, `joins.${name}.page`, 1, Number.MAX_SAFE_INTEGER),
      sort: raw.sort === undefined ? undefined : String(raw.sort),
      where: where as Where | undefined,
    };
  }
  return out;
}
