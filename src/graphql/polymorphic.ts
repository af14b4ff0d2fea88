/**
 * Polymorphic relationships (`relationTo: ['pages', 'posts']`) as Payload's GraphQL types them: an object
 * `Post_Related_Relationship { relationTo: Post_Related_RelationTo, value: Post_Related }` where the enum
 * names the collections and the union holds their document types; writes take
 * `Post_RelatedRelationshipInput { relationTo, value }`. Values resolve through the request's loader, so
 * a list's related documents are read in one batch per collection.
 */
import {
  GraphQLEnumType,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLObjectType,
  GraphQLUnionType,
  type GraphQLFieldResolver,
} from 'graphql';
import type { SanitizedField } from '../config/types.ts';
import { relationTargets } from '../config/relation-targets.ts';
import { GraphQLJSON } from './scalars.ts';
import { combineParentName, formatName, toWords } from './names.ts';
import type { SchemaBuild } from './build-state.ts';
import { contextAt, type GraphQLRequest } from './request-context.ts';
import { trySpendDocuments } from '../operations/steps/document-budget.ts';

type Doc = Record<string, unknown>;
/** Which collection a resolved document came from, for the union's resolveType (never serialised). */
const COLLECTION = Symbol('collection');

function targetsEnum(field: SanitizedField, name: string, build: SchemaBuild): GraphQLEnumType {
  return build.named(
    name,
    () =>
      new GraphQLEnumType({
        name,
        values: Object.fromEntries(relationTargets(field).map((slug) => [formatName(slug), { value: slug }])),
      }),
  );
}

export function polymorphicOutput(field: SanitizedField, parent: string, build: SchemaBuild) {
  const name = combineParentName(parent, toWords(field.name));
  const type = build.named(
    `${name}_Relationship`,
    () =>
      new GraphQLObjectType({
        name: `${name}_Relationship`,
        fields: () => ({
          relationTo: { type: targetsEnum(field, `${name}_RelationTo`, build) },
          value: {
            type: build.named(
              name,
              () =>
                new GraphQLUnionType({
                  name,
                  types: () => relationTargets(field).map((slug) => build.docTypes.get(slug)!),
                  resolveType: (doc: Doc & { [COLLECTION]?: string }) =>
                    build.docTypes.get(doc[COLLECTION] ?? '')?.name,
                }),
            ),
          },
        }),
      }),
  );
  return field.hasMany ? new GraphQLList(type) : type;
}

export function polymorphicInput(field: SanitizedField, parent: string, build: SchemaBuild) {
  const name = `${combineParentName(parent, toWords(field.name))}RelationshipInput`;
  const type = build.named(
    name,
    () =>
      new GraphQLInputObjectType({
        name,
        fields: { relationTo: { type: targetsEnum(field, `${name}RelationTo`, build) }, value: { type: GraphQLJSON } },
      }),
  );
  return field.hasMany ? new GraphQLList(type) : type;
}

/** `{ relationTo, value }` with the document as value; a missing or unreadable one is null (left out of lists), as in Payload. */
export function resolvePolymorphic(field: SanitizedField): GraphQLFieldResolver<Doc, GraphQLRequest> {
  return async (parent, _args, req, info) => {
    const ctx = contextAt(req, info);
    const one = async (v: unknown) => {
      if (!v || typeof v !== 'object') return null;
      const { relationTo, value } = v as { relationTo: string; value: unknown };
      const doc = typeof value === 'number' ? await req.loader.load(ctx, relationTo, value) : (value as Doc | null);
      return doc ? { relationTo, value: { ...doc, [COLLECTION]: relationTo } } : null;
    };
    const value = parent[field.name];
    const count = Array.isArray(value) ? value.length : value == null ? 0 : 1;
    // Past the request's budget nothing more is read: the whole answer becomes that one error (execute.ts).
    if (!trySpendDocuments(ctx, count)) return field.hasMany ? [] : null;
    if (!field.hasMany) return one(value);
    return Array.isArray(value) ? (await Promise.all(value.map(one))).filter(Boolean) : [];
  };
}
