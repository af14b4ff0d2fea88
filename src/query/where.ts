/**
 * Compiles a `where` object into a parameterised SQL condition: walks its `and`/`or` lists and field paths
 * (through relationships into related collections), counts what it asks for against the limits, and
 * leaves each field path to field-target.ts and each operator to conditions.ts.
 */
import { APIError, badRequest } from '../errors.ts';
import { quote, type Dialect, type SQLPart } from '../db/store.ts';
import { isRelationField } from '../config/relation-targets.ts';
import type { Entity, SanitizedField, Where } from '../config/types.ts';
import type { LocaleOptions } from '../fields/localize.ts';
import { condition } from './conditions.ts';
import { resolveTarget } from './field-target.ts';
import { isObject, MAX_CONDITIONS, MAX_DEPTH, MAX_VALUES } from './limits.ts';
import { operatorOf } from './operators.ts';

export type { SQLPart };
export { quote };
/**
 * Whose query this is. The system — access rules from the config, the Local API with overrideAccess — may
 * filter and sort on any field; a caller may not use the `denied` paths (hidden fields and fields it may not
 * read, src/access/query-rights.ts), which are then unknown fields to it.
 */
export type QueryRights = { trusted: true } | { denied: ReadonlySet<string> };
export const TRUSTED: QueryRights = { trusted: true };

/**
 * The collections a caller's `where` reaches through relationship fields (`author.name`), by the
 * relationship field's name: the related collection, the caller's read filter on it, what the caller may
 * query there, and the relationships it reads through from there (`post.category.title`)
 * (src/access/query-rights.ts `relatedQueries`). A relationship not in the map cannot be queried through.
 */
export type RelatedQuery = {
  entity: Entity;
  readFilter: SQLPart | null;
  rights: QueryRights;
  related: RelatedQueries | null;
};
export type RelatedQueries = ReadonlyMap<string, RelatedQuery>;

type CompileState = {
  count: number;
  values: number;
  denied: ReadonlySet<string> | null;
  dialect: Dialect;
  related: RelatedQueries | null;
};

export const deniedOf = (rights: QueryRights) => ('denied' in rights && rights.denied.size > 0 ? rights.denied : null);

export function compileWhere(
  dialect: Dialect,
  entity: Entity,
  where: Where | undefined | null,
  locale: LocaleOptions | null,
  rights: QueryRights,
  related: RelatedQueries | null = null,
): SQLPart | null {
  if (!where || (isObject(where) && Object.keys(where).length === 0)) return null;
  return compileNode(entity, where, locale, 0, { count: 0, values: 0, denied: deniedOf(rights), dialect, related });
}

/**
 * The top-level relationship field `key` starts with (`author` of `author.name`), when the key reads through
 * one. A polymorphic field is never read through: its paths are `.relationTo` and `.value`.
 */
export function relationshipOf(entity: Entity, key: string): SanitizedField | null {
  const dot = key.indexOf('.');
  if (dot === -1) return null;
  const field = entity.fields.find((f) => f.name === key.slice(0, dot));
  return field && isRelationField(field) && typeof field.relationTo === 'string' ? field : null;
}

/**
 * `author.name` → the relationship holds the id of a related document that the caller may read and whose
 * `name` matches: `"author" IN (SELECT "id" FROM "authors" WHERE …)`; with `hasMany`, any of its ids.
 * The condition inside is compiled for the related collection, under the caller's rights there.
 */
function relatedCondition(
  entity: Entity,
  key: string,
  operators: Record<string, unknown>,
  locale: LocaleOptions | null,
  depth: number,
  state: CompileState,
): SQLPart | null {
  const field = relationshipOf(entity, key);
  const related = field && state.related?.get(field.name);
  if (!field || !related) return null;
  const head = resolveTarget(state.dialect, entity, field.name, locale, state.denied);
  const rest = key.slice(field.name.length + 1);
  const innerState = { ...state, denied: deniedOf(related.rights), related: related.related };
  let inner: SQLPart | null;
  try {
    inner = compileNode(related.entity, { [rest]: operators }, locale, depth + 1, innerState);
  } catch (error) {
    // Errors name the path as the caller wrote it (a hop further on has named it from there already).
    if (!(error instanceof APIError) || error.field !== rest) throw error;
    throw badRequest(error.message.replaceAll(`"${rest}"`, `"${key}"`), key);
  }
  state.count = innerState.count;
  state.values = innerState.values;
  const filters = [inner, related.readFilter].filter((p): p is SQLPart => p !== null);
  const where = filters.length ? ` WHERE ${join(filters, ' AND ').sql}` : '';
  const ids = {
    sql: `SELECT "id" FROM ${quote(related.entity.table)}${where}`,
    params: filters.flatMap((p) => p.params),
  };
  if (!head.many) return { sql: `${head.expr} IN (${ids.sql})`, params: ids.params };
  const item = state.dialect.jsonValue('value', [], 'integer');
  return {
    sql: `EXISTS (SELECT 1 FROM ${state.dialect.jsonItems(head.expr)} WHERE ${item} IN (${ids.sql}))`,
    params: ids.params,
  };
}

function compileNode(
  entity: Entity,
  node: unknown,
  locale: LocaleOptions | null,
  depth: number,
  state: CompileState,
): SQLPart | null {
  if (depth > MAX_DEPTH) throw badRequest(`The where query is nested more than ${MAX_DEPTH} levels deep.`);
  if (!isObject(node)) throw badRequest('The where query must be an object.');
  const parts: SQLPart[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'and' || key === 'or') {
      const list = Array.isArray(value) ? value : isObject(value) ? Object.values(value) : null;
      if (!list) throw badRequest(`"${key}" takes a list of conditions.`);
      const inner = list
        .map((item) => compileNode(entity, item, locale, depth + 1, state))
        .filter((p): p is SQLPart => p !== null);
      if (inner.length) parts.push(join(inner, key === 'and' ? ' AND ' : ' OR '));
      continue;
    }
    if (!isObject(value))
      throw badRequest(`The condition on "${key}" needs an operator, such as ${key}[equals]=…`, key);
    const through = relatedCondition(entity, key, value, locale, depth, state);
    if (through) {
      parts.push(through);
      continue;
    }
    const target = resolveTarget(state.dialect, entity, key, locale, state.denied);
    for (const [rawOperator, operand] of Object.entries(value)) {
      if (++state.count > MAX_CONDITIONS)
        throw badRequest(`The where query has more than ${MAX_CONDITIONS} conditions.`);
      const operator = operatorOf(rawOperator);
      if (!operator) throw badRequest(`Unknown operator "${rawOperator}" on "${key}".`, key);
      if (target.onlyExists && operator !== 'exists')
        throw badRequest(`Query "${key}.relationTo" or "${key}.value" (or "exists" on "${key}").`, key);
      const part = condition(state.dialect, target, operator, operand, key);
      state.values += part.params.length;
      if (state.values > MAX_VALUES) throw badRequest(`The where query has more than ${MAX_VALUES} values.`);
      parts.push(part);
    }
  }
  if (parts.length === 0) return null;
  return join(parts, ' AND ');
}

function join(parts: SQLPart[], glue: string): SQLPart {
  if (parts.length === 1) return parts[0];
  return { sql: `(${parts.map((p) => p.sql).join(glue)})`, params: parts.flatMap((p) => p.params) };
}
