/**
 * `version<Name>(id)` and `versions<Names>(where, limit, page, sort)` of a drafts collection or global, with
 * Payload's names: the same two fields for both, each resolved by one call of the operation REST makes.
 */
import { GraphQLInt, GraphQLNonNull, GraphQLString, type GraphQLFieldConfig } from 'graphql';
import type { Entity } from '../config/types.ts';
import type { OperationContext } from '../operation-context.ts';
import type { VersionListArgs } from '../operations/find-versions.ts';
import { paginatedType, versionType } from './object-types.ts';
import { localeArgs } from './locale-args.ts';
import { toWhere, versionsWhereInput } from './where-inputs.ts';
import { richTextArgs } from './rich-text.ts';
import { rootContext, type GraphQLRequest } from './request-context.ts';
import type { SchemaBuild } from './build-state.ts';

type Fields = Record<string, GraphQLFieldConfig<unknown, GraphQLRequest, any>>;

/** `one`: the singular name (`Post`, `Settings`); `many`: the plural (`Posts`; a global's is its name again). */
export function versionQueries(
  entity: Entity,
  names: { one: string; many: string },
  build: SchemaBuild,
  reads: {
    byID: (ctx: OperationContext, version: number) => Promise<unknown>;
    list: (ctx: OperationContext, args: VersionListArgs) => Promise<unknown>;
  },
): Fields {
  const record = versionType(entity, names.one, build);
  return {
    [`version${names.one}`]: {
      type: record,
      args: { id: { type: new GraphQLNonNull(GraphQLInt) }, ...localeArgs(build), ...richTextArgs },
      resolve: (_, args, req, info) => reads.byID(rootContext(req, info, args, entity), args.id),
    },
    [`versions${names.many}`]: {
      type: paginatedType(`versions${names.many}`, record, build),
      args: {
        where: { type: versionsWhereInput(`versions${names.one}`, build) },
        ...localeArgs(build),
        ...richTextArgs,
        limit: { type: GraphQLInt },
        page: { type: GraphQLInt },
        sort: { type: GraphQLString },
      },
      resolve: (_, args, req, info) =>
        reads.list(rootContext(req, info, args, entity), {
          where: toWhere(args.where),
          limit: args.limit ?? undefined,
          page: args.page ?? undefined,
          sort: args.sort ?? undefined,
        }),
    },
  };
}
