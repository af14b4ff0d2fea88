/**
 * Input types of writes: `mutationPost` (create), `mutationPostUpdate` (update), `mutationSettings`, and
 * their nested groups and rows. Every field is optional here: what is required, and every other rule, is
 * the write operation's to check, so GraphQL refuses exactly what REST refuses, with the same messages.
 */
import { GraphQLInputObjectType, GraphQLString, type GraphQLInputFieldConfigMap, type GraphQLInputType } from 'graphql';
import type { Entity, SanitizedField } from '../config/types.ts';
import { isUploadCollection, MEDIA_SYSTEM_FIELDS } from '../config/upload-collections.ts';
import { inSchema } from './in-schema.ts';
import type { SchemaBuild } from './build-state.ts';
import { statusInput } from './status-input.ts';

function inputFields(fields: SanitizedField[], parent: string, build: SchemaBuild): GraphQLInputFieldConfigMap {
  const out: GraphQLInputFieldConfigMap = {};
  // Join fields are read-only: Payload's inputs leave them out.
  for (const field of fields.filter((f) => inSchema(f) && f.type !== 'join'))
    out[field.name] = { type: build.mappingOf(field).input(field, parent, build) };
  return out;
}

export function nestedInput(field: SanitizedField, name: string, build: SchemaBuild): GraphQLInputType {
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
