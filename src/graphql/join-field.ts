/**
 * Join fields as Payload's GraphQL serves them: `Post_Comments { docs: [Comment!]!, hasNextPage, totalDocs }`
 * with the arguments `where` (the joined collection's `Comment_where`), `limit`, `page`, `sort` (the
 * field's defaults without them). Read only when selected: one batched read per join and arguments for
 * the whole list, documents included (loader.ts); reads elsewhere in GraphQL leave join fields out.
 */
import {
  GraphQLBoolean,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldResolver,
} from 'graphql';
import type { SanitizedCollection, SanitizedField } from '../config/types.ts';
import { parseJoins, type JoinQuery } from '../query/join-options.ts';
import { combineParentName, toWords } from './names.ts';
import type { SchemaBuild } from './build-state.ts';
import { contextAt, type GraphQLRequest } from './request-context.ts';
import { overBudget } from '../operations/steps/document-budget.ts';
import { toWhere, whereInput } from './where-inputs.ts';

type Doc = Record<string, unknown>;

export function joinOutput(field: SanitizedField, parent: string, build: SchemaBuild) {
  const name = combineParentName(parent, toWords(field.name));
  return build.named(
    name,
    () =>
      new GraphQLObjectType({
        name,
        fields: () => ({
          docs: {
            type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(build.docTypes.get(field.collection!)!))),
          },
          hasNextPage: { type: new GraphQLNonNull(GraphQLBoolean) },
          totalDocs: { type: GraphQLInt },
        }),
      }),
  );
}

export function joinArgs(field: SanitizedField, build: SchemaBuild): GraphQLFieldConfigArgumentMap {
  const target = build.config.collectionsBySlug.get(field.collection!)!;
  const singular = build.names.collections.get(target.slug)!.singular;
  return {
    where: { type: whereInput(target.fields, singular, build, { status: target.drafts }) },
    limit: { type: GraphQLInt },
    page: { type: GraphQLInt },
    sort: { type: GraphQLString },
  };
}

export function resolveJoin(field: SanitizedField): GraphQLFieldResolver<Doc, GraphQLRequest> {
  let owner: SanitizedCollection | undefined;
  return async (parent, args, req, info) => {
    const ctx = contextAt(req, info);
    if (overBudget(ctx)) return null;
    owner ??= req.cms.config.collections.find((c) => c.fields.includes(field));
    const asked = Object.fromEntries(
      Object.entries({ ...args, where: toWhere(args.where) }).filter(([, v]) => v !== undefined && v !== null),
    );
    const query = (parseJoins({ [field.name]: asked }) as Record<string, JoinQuery>)[field.name];
    const value =
      owner && typeof parent.id === 'number' ? await req.loader.join(ctx, owner, field, query, parent.id) : null;
    return value && { ...value, docs: value.docs.filter(Boolean) };
  };
}
