/**
 * Filters: `Post_where` holds one input per field (`Post_title_operator`) with the operators of the
 * field's type (Payload's spellings), fields of groups by `group__field`, and `AND`/`OR` lists of the
 * same. `toWhere` turns an argument back into the `where` REST takes, so both filter through one compiler.
 */
import { GraphQLBoolean, GraphQLInputObjectType, GraphQLList, type GraphQLInputFieldConfigMap } from 'graphql';
import type { SanitizedField, Where } from '../config/types.ts';
import { inSchema } from './in-schema.ts';
import { COMPARISON, EQUALITY, ID_OPERATORS, LISTS, type Operators } from './operators.ts';
import { operandKindOf } from '../query/operators.ts';
import { combineParentName, formatName } from './names.ts';
import { GraphQLDateTime, GraphQLJSON } from './scalars.ts';
import { kindOf } from '../fields/kinds/index.ts';
import { scalarOperators, unknownShape, type GraphQLShape } from './field-types.ts';
import { optionsEnum } from './options-enum.ts';
import type { SchemaBuild } from './build-state.ts';
import { statusInput } from './status-input.ts';
import { plain } from './request-context.ts';

const PATH_SEPARATOR = '__';

function operatorInput(
  name: string,
  operators: Operators,
  required: boolean,
  build: SchemaBuild,
): GraphQLInputObjectType {
  return build.named(name, () => {
    const fields: GraphQLInputFieldConfigMap = {};
    for (const op of operators.names)
      fields[op] = { type: operandKindOf(op) === 'list' ? new GraphQLList(operators.type) : operators.type };
    if (!required) fields.exists = { type: GraphQLBoolean };
    return new GraphQLInputObjectType({ name, fields });
  });
}

function fieldInputs(
  fields: SanitizedField[],
  prefix: string,
  parent: string,
  build: SchemaBuild,
  out: GraphQLInputFieldConfigMap,
): void {
  for (const field of fields.filter(inSchema)) {
    const kind = kindOf(field).graphQL;
    // Not filterable as one value: a group's or a row's fields are reached by their paths (`seo__title`).
    if ('shape' in kind && (kind.shape === 'group' || kind.shape === 'array')) {
      fieldInputs(field.fields ?? [], `${prefix}${field.name}${PATH_SEPARATOR}`, parent, build, out);
      continue;
    }
    const key = formatName(`${prefix}${field.name}`);
    const operators = 'scalar' in kind ? scalarOperators(kind) : shapeOperators(kind.shape, field, parent, build);
    if (operators)
      out[key] = {
        type: operatorInput(
          `${combineParentName(parent, key)}_operator`,
          operators,
          Boolean(field.required && !prefix),
          build,
        ),
      };
  }
}

/** The operators of a field of this shape; null where it is not filterable as one value. */
function shapeOperators(
  shape: GraphQLShape,
  field: SanitizedField,
  parent: string,
  build: SchemaBuild,
): Operators | null {
  switch (shape) {
    case 'select':
    case 'radio':
      return { names: CHOICES, type: optionsEnum(field, `${combineParentName(parent, field.name)}_Input`, build) };
    case 'relationship':
      return { names: CHOICES, type: GraphQLJSON };
    // Rich text is not queryable, like Payload's; nor is a blocks field or a join as one value.
    case 'richText':
    case 'join':
    case 'blocks':
    case 'array':
    case 'group':
    case 'layout':
      return null;
    default:
      return unknownShape(shape);
  }
}

const CHOICES = [...EQUALITY, ...LISTS, 'contains'];

export type WhereExtras = { id?: boolean; timestamps?: boolean; status?: boolean };

/** `Post_where` (and `Post_where_and`, `Post_where_or`) for these fields. */
export function whereInput(
  fields: SanitizedField[],
  name: string,
  build: SchemaBuild,
  extras: WhereExtras = {},
): GraphQLInputObjectType {
  return build.named(`${name}_where`, () => {
    const own: GraphQLInputFieldConfigMap = {};
    fieldInputs(fields, '', name, build, own);
    if (extras.id !== false) own.id = { type: operatorInput(`${name}_id_operator`, ID_OPERATORS, false, build) };
    if (extras.timestamps !== false) {
      for (const key of ['createdAt', 'updatedAt']) {
        own[key] = {
          type: operatorInput(
            `${name}_${key}_operator`,
            { names: [...EQUALITY, ...COMPARISON, 'like'], type: GraphQLDateTime },
            false,
            build,
          ),
        };
      }
    }
    if (extras.status) {
      const status = {
        type: operatorInput(
          `${name}__status_operator`,
          { names: [...EQUALITY, ...LISTS], type: statusInput(`${name}__status_Input`, build) },
          false,
          build,
        ),
      };
      own.status = own._status = status;
    }
    const combined = (suffix: string): GraphQLInputObjectType =>
      new GraphQLInputObjectType({ name: `${name}_where_${suffix}`, fields: () => ({ ...own, ...recursive }) });
    const recursive: GraphQLInputFieldConfigMap = {
      AND: { type: new GraphQLList(combined('and')) },
      OR: { type: new GraphQLList(combined('or')) },
    };
    return new GraphQLInputObjectType({ name: `${name}_where`, fields: { ...own, ...recursive } });
  });
}

/** A `Post_where` argument as the `where` of the query compiler: `AND`/`OR` → `and`/`or`, `seo__title` → `seo.title`. */
export function toWhere(input: unknown): Where | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const out: Where = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    if (key === 'AND' || key === 'OR') out[key.toLowerCase()] = (value as unknown[]).map((w) => toWhere(w) ?? {});
    else out[key.split(PATH_SEPARATOR).join('.')] = plain(value);
  }
  return out;
}

const VERSION_FIELDS: SanitizedField[] = [
  { name: 'parent', type: 'number', path: 'parent', localized: false },
  { name: 'status', type: 'text', path: 'status', localized: false },
  { name: 'latest', type: 'checkbox', path: 'latest', localized: false },
] as SanitizedField[];

/** `versionsPost_where` / `versionsSettings_where`: the version record's own fields, id and timestamps. */
export function versionsWhereInput(name: string, build: SchemaBuild): GraphQLInputObjectType {
  return whereInput(VERSION_FIELDS, name, build);
}
