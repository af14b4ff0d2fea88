/**
 * A field path of a `where` or `sort` (`title`, `seo.title`, `items.name`, `link.value`) → the SQL
 * expression that reads it, with what kind of value it holds and the row lists it goes through. Column
 * names and JSON paths come only from the sanitized config.
 */
import { badRequest } from '../errors.ts';
import { quote, type Dialect, type ValueKind } from '../db/store.ts';
import { isColumnField } from '../config/field-tree.ts';
import { isPolymorphic, isStoredField } from '../config/relation-targets.ts';
import type { Entity, SanitizedField } from '../config/types.ts';
import { kindOf } from '../fields/kinds/index.ts';
import type { LocaleOptions } from '../fields/localize.ts';

/**
 * `rows`: the row lists (arrays, blocks, a hasMany polymorphic list) the path goes through, outermost first,
 * as FROM items aliased r1, r2, …. `onlyExists`: a polymorphic value as a whole, of which only `exists` can
 * be asked (else `.relationTo` or `.value`).
 */
export type Target = {
  expr: string;
  field: SanitizedField | null;
  kind: 'id' | 'date' | 'text' | 'number' | 'boolean' | 'point';
  many: boolean;
  rows: string[];
  onlyExists?: boolean;
};

/** A localized value: the locale's own, else the fallback locale's (still JSON, to read further into). */
function localizedExpr(dialect: Dialect, base: string, jsonPath: string[], locale: LocaleOptions | null): string {
  const own = dialect.jsonGet(base, [...jsonPath, locale?.locale ?? '']);
  if (!locale || !locale.fallbackLocale || locale.fallbackLocale === locale.locale) return own;
  return `COALESCE(${own}, ${dialect.jsonGet(base, [...jsonPath, locale.fallbackLocale])})`;
}

/** How a field's values are compared: as its kind says (fields/kinds/), else as text. */
const comparedAs = (field: SanitizedField): Target['kind'] => kindOf(field).whereAs ?? 'text';

/**
 * A field path (`title`, `seo.title`, `items.name`) → the SQL expression that reads it. A denied path, or
 * one below a denied group or array, answers exactly as an unknown field does.
 */
export function resolveTarget(
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
  const kind = comparedAs(f);
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

export function valueKind(kind: Target['kind'], field: SanitizedField): ValueKind {
  if (field.type === 'json' || kind === 'point') return 'json';
  return kind === 'id' ? 'integer' : kind;
}
