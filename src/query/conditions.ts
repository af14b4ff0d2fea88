/**
 * One operator on one field target → a parameterised SQL condition. Every value a client sends becomes a
 * bound parameter, coerced to the target's kind; what differs between engines (JSON array items,
 * case-insensitive matching) comes from the store's dialect. Conditions on fields inside rows, and on
 * hasMany lists, match when any row or item matches.
 */
import { badRequest } from '../errors.ts';
import type { Dialect, SQLPart } from '../db/store.ts';
import { valueKind, type Target } from './field-target.ts';
import { isObject, MAX_LIST, MAX_TERM_LENGTH, MAX_WORDS } from './limits.ts';
import { checkPointOperator, nearCondition } from './near.ts';
import type { Operator } from './operators.ts';

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

export function condition(
  dialect: Dialect,
  target: Target,
  operator: Operator,
  operand: unknown,
  key: string,
): SQLPart {
  if (target.kind === 'point' || operator === 'near') {
    checkPointOperator(target, operator, key);
    if (operator === 'near') return nearCondition(dialect, target, operand, key);
    return scalarCondition(dialect, { ...target, kind: 'number' }, operator, operand, key);
  }
  const part = scalarCondition(dialect, target, operator, operand, key);
  if (target.rows.length === 0) return part;
  // Rows of an array or blocks field: true when any row matches (for negations: when no row matches the positive form).
  const from = target.rows.join(', ');
  const negated = operator === 'not_equals' || operator === 'not_in' || operator === 'not_like';
  if (negated) {
    const positive = scalarCondition(dialect, target, operator.replace('not_', '') as Operator, operand, key);
    return { sql: `NOT EXISTS (SELECT 1 FROM ${from} WHERE ${positive.sql})`, params: positive.params };
  }
  return { sql: `EXISTS (SELECT 1 FROM ${from} WHERE ${part.sql})`, params: part.params };
}

function scalarCondition(dialect: Dialect, target: Target, operator: Operator, operand: unknown, key: string): SQLPart {
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
function manyCondition(dialect: Dialect, target: Target, operator: Operator, operand: unknown, key: string): SQLPart {
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
