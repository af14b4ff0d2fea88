/**
 * Input types of writes: `mutationPost` (create), `mutationPostUpdate` (update), `mutationSettings`, and
 * their nested groups and rows. Every field is optional here: what is required, and every other rule, is
 * the write operation's to check, so GraphQL refuses exactly what REST refuses, with the same messages.
 */
import {
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLString,
  type GraphQLInputFieldConfigMap,
  type GraphQLInputType,
} from 'graphql';
import type { Entity, SanitizedField } from '../config/types.ts';
import { isUploadCollection, MEDIA_SYSTEM_FIELDS } from '../config/upload-collections.ts';
import { isPolymorphic } from '../config/relation-targets.ts';
import { kindOf } from '../fields/kinds/index.ts';
import { listIf, scalarType, unknownShape } from './field-types.ts';
import { optionsEnum } from './options-enum.ts';
import { polymorphicInput } from './polymorphic.ts';
import { combineParentName, toWords } from './names.ts';
import { GraphQLJSON } from './scalars.ts';
import { inSchema } from './in-schema.ts';
import type { SchemaBuild } from './build-state.ts';
import { statusInput } from './status-input.ts';

function inputFields(fields: SanitizedField[], parent: string, build: SchemaBuild): GraphQLInputFieldConfigMap {
  const out: GraphQLInputFieldConfigMap = {};
  for (const field of fields.filter(inSchema)) {
    const type = inputOf(field, parent, build);
    if (type) out[field.name] = { type };
  }
  return out;
}

/** What a write takes for the field by its kind; null for a join, which is never written (Payload's inputs leave it out). */
function inputOf(field: SanitizedField, parent: string, build: SchemaBuild): GraphQLInputType | null {
  const kind = kindOf(field).graphQL;
  if ('scalar' in kind) return scalarType(kind, field);
  const name = combineParentName(parent, field.name);
  const nested = combineParentName(parent, toWords(field.name));
  switch (kind.shape) {
    case 'select':
      return listIf(field.hasMany, optionsEnum(field, `${name}_MutationInput`, build));
    case 'radio':
      return optionsEnum(field, `${name}_MutationInput`, build);
    case 'relationship':
      return isPolymorphic(field) ? polymorphicInput(field, parent, build) : listIf(field.hasMany, GraphQLInt);
    case 'join':
      return null;
    case 'array':
      return new GraphQLList(nestedInput(field, nested, build));
    case 'group':
      return nestedInput(field, nested, build);
    case 'richText':
      return listIf(field.hasMany, GraphQLJSON);
    // Rows of any block: each is checked against its block by the write.
    case 'blocks':
      return new GraphQLList(GraphQLJSON);
    case 'layout':
      throw new Error('layout fields are flattened before GraphQL sees them');
    default:
      return unknownShape(kind.shape);
  }
}

/** A group's input, or an array row's (rows may carry their `id`). */
function nestedInput(field: SanitizedField, name: string, build: SchemaBuild): GraphQLInputType {
  return build.named(
    `${name}Input`,
    () =>
      new GraphQLInputObjectType({
        name: `${name}Input`,
        fields: () => ({
          ...(field.type === 'array' ? { id: { type: GraphQLString } } : {}),
          ...inputFields(field.fields ?? [], name, build),
        }),
      }),
  );
}

/** Null when nothing can be written (a collection whose fields are all hidden or set by the system). */
export function mutationInput(entity: Entity, name: string, build: SchemaBuild): GraphQLInputObjectType | null {
  const writable = entity.fields.filter((f) => !(isUploadCollection(entity) && MEDIA_SYSTEM_FIELDS.has(f.name)));
  const fields: GraphQLInputFieldConfigMap = inputFields(writable, name, build);
  if (entity.kind === 'collection' && entity.builtIn === 'users') fields.password = { type: GraphQLString };
  if (entity.drafts) fields._status = fields.status = { type: statusInput(`${name}__status_MutationInput`, build) };
  if (Object.keys(fields).length === 0) return null;
  return build.named(name, () => new GraphQLInputObjectType({ name, fields }));
}
