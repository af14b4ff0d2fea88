/**
 * A collection's queries and mutations with Payload's names (`Post`, `Posts`, `countPosts`,
 * `versionPost`, `versionsPosts`, `createPost`, `updatePost`, `deletePost`, `duplicatePost`,
 * `restoreVersionPost`). Each resolver is one call of the operation REST makes, at depth 0 and without
 * joins: related and joined documents are resolved by the selection (resolve-relationship.ts, join-field.ts).
 */
import {
  GraphQLBoolean,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputObjectType,
} from 'graphql';
import type { SanitizedCollection } from '../config/types.ts';
import { count, create, deleteDocument, duplicate, find, findByID, update } from '../operations/index.ts';
import {
  findCollectionVersionByID,
  findCollectionVersions,
  restoreCollectionVersion,
} from '../operations/collection-versions.ts';
import { documentType, paginatedType } from './object-types.ts';
import { mutationInput } from './mutation-inputs.ts';
import { toWhere, whereInput } from './where-inputs.ts';
import { localeArgs } from './locale-args.ts';
import { richTextArgs } from './rich-text.ts';
import { versionQueries } from './version-fields.ts';
import { plain, rootContext, type GraphQLRequest } from './request-context.ts';
import type { SchemaBuild } from './build-state.ts';

type Fields = Record<string, GraphQLFieldConfig<unknown, GraphQLRequest, any>>;
const id = { type: new GraphQLNonNull(GraphQLInt) };

export function collectionDocType(collection: SanitizedCollection, build: SchemaBuild): void {
  build.docTypes.set(
    collection.slug,
    documentType(collection, build.names.collections.get(collection.slug)!.singular, build),
  );
}

export function collectionQueries(collection: SanitizedCollection, build: SchemaBuild): Fields {
  const { singular, plural } = build.names.collections.get(collection.slug)!;
  const slug = collection.slug;
  const type = build.docTypes.get(slug)!;
  const where = whereInput(collection.fields, singular, build, { status: collection.drafts });
  const fields: Fields = {
    [singular]: {
      type,
      args: { id, draft: { type: GraphQLBoolean }, ...localeArgs(build), ...richTextArgs },
      resolve: (_, args, req, info) =>
        findByID(rootContext(req, info, args, collection), {
          collection: slug,
          id: args.id,
          draft: args.draft ?? false,
          depth: 0,
          joins: false,
        }),
    },
    [plural]: {
      type: paginatedType(plural, type, build),
      args: {
        draft: { type: GraphQLBoolean },
        where: { type: where },
        ...localeArgs(build),
        ...richTextArgs,
        limit: { type: GraphQLInt },
        page: { type: GraphQLInt },
        pagination: { type: GraphQLBoolean },
        sort: { type: GraphQLString },
      },
      resolve: (_, args, req, info) =>
        find(rootContext(req, info, args, collection), {
          collection: slug,
          where: toWhere(args.where),
          limit: args.limit ?? undefined,
          page: args.page ?? undefined,
          sort: args.sort ?? undefined,
          pagination: args.pagination ?? undefined,
          draft: args.draft ?? false,
          depth: 0,
          joins: false,
          // Any page size: the cost measure bounds what the query does with it (limits.ts).
          maxLimit: Infinity,
        }),
    },
    [`count${plural}`]: {
      type: build.named(
        `count${plural}`,
        () => new GraphQLObjectType({ name: `count${plural}`, fields: { totalDocs: { type: GraphQLInt } } }),
      ),
      args: { draft: { type: GraphQLBoolean }, where: { type: where }, ...localeArgs(build, false) },
      resolve: (_, args, req, info) =>
        count(rootContext(req, info, args, collection), {
          collection: slug,
          where: toWhere(args.where),
          draft: args.draft ?? false,
        }),
    },
  };
  if (!collection.drafts) return fields;
  Object.assign(
    fields,
    versionQueries(collection, { one: singular, many: plural }, build, {
      byID: (ctx, version) => findCollectionVersionByID(ctx, { collection: slug, version, depth: 0 }),
      list: (ctx, args) => findCollectionVersions(ctx, { collection: slug, ...args, depth: 0 }),
    }),
  );
  return fields;
}

export function collectionMutations(collection: SanitizedCollection, build: SchemaBuild): Fields {
  const { singular } = build.names.collections.get(collection.slug)!;
  const slug = collection.slug;
  const type = build.docTypes.get(slug)!;
  const createInput = mutationInput(collection, `mutation${singular}`, build);
  const updateInput = mutationInput(collection, `mutation${singular}Update`, build);
  const data = (input: GraphQLInputObjectType | null, required: boolean): GraphQLFieldConfigArgumentMap =>
    input ? { data: { type: required ? new GraphQLNonNull(input) : input } } : {};
  const fields: Fields = {
    [`create${singular}`]: {
      type,
      args: { ...data(createInput, true), draft: { type: GraphQLBoolean }, ...localeArgs(build, false) },
      resolve: (_, args, req, info) =>
        create(rootContext(req, info, args), {
          collection: slug,
          data: plain(args.data) ?? {},
          draft: args.draft ?? false,
          depth: 0,
        }),
    },
    [`update${singular}`]: {
      type,
      args: {
        id,
        ...data(updateInput, false),
        draft: { type: GraphQLBoolean },
        autosave: { type: GraphQLBoolean },
        ...localeArgs(build, false),
      },
      resolve: (_, args, req, info) =>
        update(rootContext(req, info, args), {
          collection: slug,
          id: args.id,
          data: plain(args.data) ?? {},
          draft: args.draft ?? false,
          depth: 0,
        }),
    },
    [`delete${singular}`]: {
      type,
      args: { id },
      resolve: (_, args, req, info) =>
        deleteDocument(rootContext(req, info, args), { collection: slug, id: args.id, depth: 0 }),
    },
    [`duplicate${singular}`]: {
      type,
      args: { id, ...data(updateInput, false) },
      resolve: (_, args, req, info) =>
        duplicate(rootContext(req, info, args), { collection: slug, id: args.id, data: plain(args.data), depth: 0 }),
    },
  };
  if (collection.drafts) {
    fields[`restoreVersion${singular}`] = {
      type,
      args: { id, draft: { type: GraphQLBoolean } },
      resolve: (_, args, req, info) =>
        restoreCollectionVersion(rootContext(req, info, args), { collection: slug, version: args.id, depth: 0 }),
    };
  }
  return fields;
}
