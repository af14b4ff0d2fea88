/**
 * Compiles a `where` object into a parameterised SQL condition. Column names and JSON paths come only from
 * the sanitized config; every value a client sends becomes a bound parameter. What differs between engines
 * (JSON paths, JSON array items, case-insensitive matching) comes from the store's dialect.
 */
import { APIError, badRequest } from '../errors.ts';
import { quote, type Dialect, type SQLPart, type ValueKind } from '../db/store.ts';
import { isColumnField } from '../config/field-tree.ts';
import { isPolymorphic, isRelationField, isStoredField } from '../config/relation-targets.ts';
import type { Entity, SanitizedField, Where } from '../config/types.ts';
import type { LocaleOptions } from '../fields/localize.ts';

export type { SQLPart };
export { quote };
/**
 * `rows`: the row lists (arrays, blocks, a hasMany polymorphic list) the path goes through, outermost first,
 * as FROM items aliased r1, r2, …. `onlyExists`: a polymorphic value as a whole, of which only `exists` can
 * be asked (else `.relationTo` or `.value`).
 */
type Target = {
  expr: string;
  field: SanitizedField | null;
  kind: 'id' | 'date' | 'text' | 'number' | 'boolean' | 'point';
  many: boolean;
  rows: string[];
  onlyExists?: boolean;
};

const OPERATOR_ALIASES: Record<string, string> = {
  greater_than: 'gt',
  greater_than_equal: 'gte',
  less_than: 'lt',
  less_than_equal: 'lte',
};
const OPERATORS = new Set([
  'equals',
  'not_equals',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'not_in',
  'like',
  'not_like',
  'contains',
  'exists',
  'near',
]);
const MAX_DEPTH = 8;
const MAX_CONDITIONS = 100;
// SQLite refuses expressions deeper than 1000 terms and LIKE patterns over 50,000 bytes: bound what one
// request can ask for well below that, so a long search is a 400 rather than an engine error.
const MAX_WORDS = 20;
const MAX_TERM_LENGTH = 1000;
const MAX_LIST = 500;
const MAX_VALUES = 1000;
const MAX_SORT_FIELDS = 10;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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

const deniedOf = (rights: QueryRights) => ('denied' in rights && rights.denied.size > 0 ? rights.denied : null);

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
      const operator = OPERATOR_ALIASES[rawOperator] ?? rawOperator;
      if (!OPERATORS.has(operator)) throw badRequest(`Unknown operator "${rawOperator}" on "${key}".`, key);
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

/** A localized value: the locale's own, else the fallback locale's (still JSON, to read further into). */
function localizedExpr(dialect: Dialect, base: string, jsonPath: string[], locale: LocaleOptions | null): string {
  const own = dialect.jsonGet(base, [...jsonPath, locale?.locale ?? '']);
  if (!locale || !locale.fallbackLocale || locale.fallbackLocale === locale.locale) return own;
  return `COALESCE(${own}, ${dialect.jsonGet(base, [...jsonPath, locale.fallbackLocale])})`;
}

function kindOf(field: SanitizedField): Target['kind'] {
  switch (field.type) {
    case 'number':
      return 'number';
    case 'checkbox':
      return 'boolean';
    case 'relationship':
    case 'upload':
      return 'id';
    case 'date':
      return 'date';
    case 'point':
      return 'point';
    default:
      return 'text';
  }
}

/**
 * A field path (`title`, `seo.title`, `items.name`) → the SQL expression that reads it. A denied path, or
 * one below a denied group or array, answers exactly as an unknown field does.
 */
function resolveTarget(
  dialect: Dialect,
  entity: Entity,
  path: string,
  locale: LocaleOptions | null,
  denied: ReadonlySet<string> | null,
): Target {
  if (path === 'id') return { expr: '"id"', field: null, kind: 'id', many: false, rows: [] };
  if (path === 'createdAt' || path === 'updatedAt')
    return { expr: quote(path), field: null, kind: 'date', many: false, rows: [] };
  if (path === 'deletedAt' && entity.kind === 'collection' && entity.trash)
    return { expr: '"deletedAt"', field: null, kind: 'date', many: false, rows: [] };
  if ((path === 'status' || path === '_status') && entity.drafts)
    return { expr: '"status"', field: null, kind: 'text', many: false, rows: [] };
  const segments = path.split('.');
  let fields = entity.fields;
  let field: SanitizedField | undefined;
  let base = '';
  let jsonPath: string[] = [];
  const rows: string[] = [];
  let fieldPath = '';
  const unknown = () => badRequest(`The field "${path}" does not exist.`, path);
  for (let i = 0; i < segments.length; i++) {
    field = fields.find((f) => f.name === segments[i]);
    if (denied) fieldPath = i === 0 ? segments[0] : `${fieldPath}.${segments[i]}`;
    if (!field || denied?.has(fieldPath)) throw unknown();
    if (!isStoredField(field)) throw badRequest(`The field "${path}" is not stored, so it cannot be queried.`, path);
    if (i === 0) base = quote(field.name);
    else jsonPath.push(field.name);
    if (field.localized) {
      base = localizedExpr(dialect, base, jsonPath, locale);
      jsonPath = [];
    }
    if (i < segments.length - 1 && isPolymorphic(field))
      return polymorphicTarget(dialect, field, base, jsonPath, rows, segments.slice(i + 1), path);
    if (i < segments.length - 1) {
      if (field.type === 'array' || field.type === 'blocks') {
        // Conditions on a field inside rows match when any row matches (rows inside rows: any of those).
        const alias = `r${rows.length + 1}`;
        rows.push(`${dialect.jsonItems(dialect.jsonGet(base, jsonPath))} AS ${alias}`);
        base = `${alias}.value`;
        jsonPath = [];
      } else if (field.type !== 'group') {
        throw unknown();
      }
      fields = field.type === 'blocks' ? queryableRowFields(field) : field.fields!;
    }
  }
  const f = field!;
  if (f.type === 'group' || f.type === 'array' || f.type === 'blocks')
    throw badRequest(`The field "${path}" holds other fields; query one of them.`, path);
  if (isPolymorphic(f))
    return { expr: dialect.jsonGet(base, jsonPath), field: f, kind: 'text', many: false, rows, onlyExists: true };
  const column = segments.length === 1 && isColumnField(f);
  const kind = kindOf(f);
  // A hasMany list and a point stay JSON (read item by item); anything else is read as its kind's value.
  const expr = column
    ? base
    : f.hasMany || kind === 'point'
      ? dialect.jsonGet(base, jsonPath)
      : dialect.jsonValue(base, jsonPath, valueKind(kind, f));
  return { expr, field: f, kind, many: Boolean(f.hasMany), rows };
}

const rowKeyFields = new WeakMap<SanitizedField, SanitizedField[]>();

/** What a path may name inside a blocks field's rows: `id`, `blockType`, `blockName` and any block's fields (the first block's, where names repeat). */
function queryableRowFields(field: SanitizedField): SanitizedField[] {
  let list = rowKeyFields.get(field);
  if (!list) {
    const keys = ['id', 'blockType', 'blockName'].map(
      (name): SanitizedField => ({ name, type: 'text', path: `${field.path}.${name}`, localized: false }),
    );
    const byName = new Map<string, SanitizedField>(keys.map((k) => [k.name, k]));
    for (const block of field.blocks ?? [])
      for (const inner of block.fields) if (!byName.has(inner.name)) byName.set(inner.name, inner);
    list = [...byName.values()];
    rowKeyFields.set(field, list);
  }
  return list;
}

/**
 * `link.relationTo` / `link.value` of a polymorphic relationship: keys of its JSON object. With hasMany a
 * condition matches when any item matches (the items are iterated like array rows).
 */
function polymorphicTarget(
  dialect: Dialect,
  field: SanitizedField,
  base: string,
  jsonPath: string[],
  rows: string[],
  rest: string[],
  path: string,
): Target {
  const [part, ...more] = rest;
  if (more.length > 0 || (part !== 'relationTo' && part !== 'value'))
    throw badRequest(
      `The field "${path}" does not exist (query ${field.name}.relationTo or ${field.name}.value).`,
      path,
    );
  const kind = part === 'value' ? 'id' : 'text';
  const valueKindOf = part === 'value' ? 'integer' : 'text';
  if (!field.hasMany)
    return { expr: dialect.jsonValue(base, [...jsonPath, part], valueKindOf), field, kind, many: false, rows };
  const alias = `r${rows.length + 1}`;
  const items = [...rows, `${dialect.jsonItems(dialect.jsonGet(base, jsonPath))} AS ${alias}`];
  return { expr: dialect.jsonValue(`${alias}.value`, [part], valueKindOf), field, kind, many: false, rows: items };
}

function valueKind(kind: Target['kind'], field: SanitizedField): ValueKind {
  if (field.type === 'json' || kind === 'point') return 'json';
  return kind === 'id' ? 'integer' : kind;
}

function coerce(target: Target, value: unknown, key: string): unknown {
  if (value === null) return null;
  if (isObject(value) || Array.isArray(value)) throw badRequest(`The value for "${key}" must be a single value.`, key);
  const text = String(value);
  switch (target.kind) {
    case 'number': {
      const n = Number(text);
      if (text.trim() === '' || !Number.isFinite(n)) throw badRequest(`"${text}" is not a number.`, key);
      return n;
    }
    case 'id': {
      if (!/^\d+$/.test(text)) throw badRequest(`"${text}" is not a document id.`, key);
      return Number(text);
    }
    case 'boolean': {
      if (text === 'true' || text === '1') return 1;
      if (text === 'false' || text === '0') return 0;
      throw badRequest(`"${text}" is not true or false.`, key);
    }
    case 'date': {
      const time = new Date(/^\d+$/.test(text) ? Number(text) : text).getTime();
      if (Number.isNaN(time)) throw badRequest(`"${text}" is not a date.`, key);
      return new Date(time).toISOString();
    }
    default:
      return text;
  }
}

function list(value: unknown, key: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (isObject(value)) return Object.values(value);
  if (value === null || value === undefined) throw badRequest(`"${key}" needs a list of values.`, key);
  return String(value)
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

// Conditions both engines accept (PostgreSQL has no integer truth values).
const TRUE = '1 = 1';
const FALSE = '1 = 0';
const isNullValue = (v: unknown) => v === null || v === 'null';
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function condition(dialect: Dialect, target: Target, operator: string, operand: unknown, key: string): SQLPart {
  if (target.kind === 'point' || operator === 'near') return pointCondition(dialect, target, operator, operand, key);
  const part = scalarCondition(dialect, target, operator, operand, key);
  if (target.rows.length === 0) return part;
  // Rows of an array or blocks field: true when any row matches (for negations: when no row matches the positive form).
  const from = target.rows.join(', ');
  const negated = operator === 'not_equals' || operator === 'not_in' || operator === 'not_like';
  if (negated) {
    const positive = scalarCondition(dialect, target, operator.replace('not_', ''), operand, key);
    return { sql: `NOT EXISTS (SELECT 1 FROM ${from} WHERE ${positive.sql})`, params: positive.params };
  }
  return { sql: `EXISTS (SELECT 1 FROM ${from} WHERE ${part.sql})`, params: part.params };
}

/** Points take `near` (within a distance, nearest first by default) and `exists`. */
function pointCondition(dialect: Dialect, target: Target, operator: string, operand: unknown, key: string): SQLPart {
  if (target.kind !== 'point') throw badRequest(`"near" works only on point fields; "${key}" is not one.`, key);
  if (target.rows.length)
    throw badRequest(`"${key}" is inside rows; points are queried at the top or inside groups.`, key);
  if (operator === 'exists') return scalarCondition(dialect, { ...target, kind: 'number' }, operator, operand, key);
  if (operator !== 'near') throw badRequest(`A point takes "near" or "exists", not "${operator}".`, key);
  const near = parseNear(operand, key);
  const distance = dialect.distanceMeters(target.expr, near.lng, near.lat);
  const within = near.maxDistance === null ? `${distance} IS NOT NULL` : `${distance} <= ?`;
  const params: unknown[] = near.maxDistance === null ? [] : [near.maxDistance];
  if (near.minDistance !== null) params.push(near.minDistance);
  return { sql: near.minDistance === null ? within : `(${within} AND ${distance} >= ?)`, params };
}

type Near = { lng: number; lat: number; maxDistance: number | null; minDistance: number | null };

/** `<lng>,<lat>[,<maxDistance m>[,<minDistance m>]]` (a string or a list). */
function parseNear(operand: unknown, key: string): Near {
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
function findNear(where: unknown, depth = 0): { path: string; near: unknown } | null {
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

function scalarCondition(dialect: Dialect, target: Target, operator: string, operand: unknown, key: string): SQLPart {
  const e = target.expr;
  if (target.many) return manyCondition(dialect, target, operator, operand, key);
  const textual = target.kind === 'text';
  switch (operator) {
    case 'equals':
      if (isNullValue(operand)) return { sql: textual ? `(${e} IS NULL OR ${e} = '')` : `${e} IS NULL`, params: [] };
      return { sql: `${e} = ?`, params: [coerce(target, operand, key)] };
    case 'not_equals':
      if (isNullValue(operand))
        return { sql: textual ? `(${e} IS NOT NULL AND ${e} <> '')` : `${e} IS NOT NULL`, params: [] };
      return { sql: `(${e} IS NULL OR ${e} <> ?)`, params: [coerce(target, operand, key)] };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const sign = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[operator];
      return { sql: `${e} ${sign} ?`, params: [coerce(target, operand, key)] };
    }
    case 'in':
    case 'not_in': {
      const items = list(operand, key);
      if (items.length > MAX_LIST) throw badRequest(`"${operator}" on "${key}" takes at most ${MAX_LIST} values.`, key);
      const values = items.map((v) => coerce(target, v, key));
      if (values.length === 0) return { sql: operator === 'in' ? FALSE : TRUE, params: [] };
      const marks = values.map(() => '?').join(', ');
      return operator === 'in'
        ? { sql: `${e} IN (${marks})`, params: values }
        : { sql: `(${e} IS NULL OR ${e} NOT IN (${marks}))`, params: values };
    }
    case 'like':
    case 'not_like': {
      const text = searchText(operand, key);
      const words = text.split(/\s+/).filter(Boolean);
      if (words.length > MAX_WORDS)
        throw badRequest(`"${operator}" on "${key}" takes at most ${MAX_WORDS} words.`, key);
      checkSearchLength(text, key);
      if (words.length === 0) return { sql: operator === 'like' ? TRUE : FALSE, params: [] };
      const all = words.map(() => dialect.likeInsensitive(e)).join(' AND ');
      const params = words.map((w) => `%${escapeLike(w)}%`);
      return operator === 'like' ? { sql: `(${all})`, params } : { sql: `(${e} IS NULL OR NOT (${all}))`, params };
    }
    case 'contains':
      return {
        sql: dialect.likeInsensitive(e),
        params: [`%${escapeLike(checkSearchLength(searchText(operand, key), key))}%`],
      };
    case 'exists': {
      const yes = parseExists(operand, key);
      if (textual)
        return { sql: yes ? `(${e} IS NOT NULL AND ${e} <> '')` : `(${e} IS NULL OR ${e} = '')`, params: [] };
      return { sql: yes ? `${e} IS NOT NULL` : `${e} IS NULL`, params: [] };
    }
  }
  throw badRequest(`Unknown operator "${operator}" on "${key}".`, key);
}

function searchText(operand: unknown, key: string): string {
  if (isObject(operand) || Array.isArray(operand))
    throw badRequest(`The value for "${key}" must be a single value.`, key);
  return String(operand ?? '');
}

function checkSearchLength(text: string, key: string): string {
  if (text.length > MAX_TERM_LENGTH)
    throw badRequest(`The search on "${key}" is longer than ${MAX_TERM_LENGTH} characters.`, key);
  return text;
}

function parseExists(operand: unknown, key: string): boolean {
  if (operand === true || operand === 'true') return true;
  if (operand === false || operand === 'false') return false;
  throw badRequest(`"exists" on "${key}" takes true or false.`, key);
}

/** hasMany values are JSON lists: a condition matches when any item matches. */
function manyCondition(dialect: Dialect, target: Target, operator: string, operand: unknown, key: string): SQLPart {
  const e = target.expr;
  const item = { ...target, expr: dialect.jsonValue('value', [], valueKind(target.kind, target.field!)), many: false };
  const length = dialect.jsonArrayLength(e);
  switch (operator) {
    case 'exists': {
      const yes = parseExists(operand, key);
      return { sql: yes ? `(${e} IS NOT NULL AND ${length} > 0)` : `(${e} IS NULL OR ${length} = 0)`, params: [] };
    }
    case 'equals':
      if (isNullValue(operand)) return manyCondition(dialect, target, 'exists', false, key);
      break;
    case 'not_equals':
    case 'not_in': {
      const positive = scalarCondition(dialect, item, operator === 'not_equals' ? 'equals' : 'in', operand, key);
      return {
        sql: `NOT EXISTS (SELECT 1 FROM ${dialect.jsonItems(e)} WHERE ${positive.sql})`,
        params: positive.params,
      };
    }
  }
  const inner = scalarCondition(dialect, item, operator, operand, key);
  return { sql: `EXISTS (SELECT 1 FROM ${dialect.jsonItems(e)} WHERE ${inner.sql})`, params: inner.params };
}

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
