/**
 * A global's queries and mutations with Payload's names: `Settings`, `updateSettings`, and for drafts
 * globals `versionSettings`, `versionsSettings`, `restoreVersionSettings`. Same operations as REST.
 */
import { GraphQLBoolean, GraphQLInt, GraphQLNonNull, type GraphQLFieldConfig } from 'graphql';
import type { SanitizedGlobal } from '../config/types.ts';
import { findGlobal, updateGlobal } from '../operations/globals.ts';
import { findVersionByID, findVersions } from '../operations/find-versions.ts';
import { restoreVersion } from '../operations/restore-version.ts';
import { documentType } from './object-types.ts';
import { mutationInput } from './mutation-inputs.ts';
import { localeArgs } from './locale-args.ts';
import { richTextArgs } from './rich-text.ts';
import { versionQueries } from './version-fields.ts';
import { plain, rootContext, type GraphQLRequest } from './request-context.ts';
import type { SchemaBuild } from './build-state.ts';

type Fields = Record<string, GraphQLFieldConfig<unknown, GraphQLRequest, any>>;
const id = { type: new GraphQLNonNull(GraphQLInt) };

export function globalQueries(global: SanitizedGlobal, build: SchemaBuild): Fields {
  const name = build.names.globals.get(global.slug)!;
  const slug = global.slug;
  const fields: Fields = {
    [name]: {
      type: documentType(global, name, build, false),
      args: { draft: { type: GraphQLBoolean }, ...localeArgs(build), ...richTextArgs },
      resolve: (_, args, req, info) =>
        findGlobal(rootContext(req, info, args, global), { slug, draft: args.draft ?? false, depth: 0 }),
    },
  };
  if (!global.drafts) return fields;
  Object.assign(
    fields,
    versionQueries(global, { one: name, many: name }, build, {
      byID: (ctx, version) => findVersionByID(ctx, { global: slug, version, depth: 0 }),
      list: (ctx, args) => findVersions(ctx, { global: slug, ...args, depth: 0 }),
    }),
  );
  return fields;
}

export function globalMutations(global: SanitizedGlobal, build: SchemaBuild): Fields {
  const name = build.names.globals.get(global.slug)!;
  const slug = global.slug;
  const type = documentType(global, name, build, false);
  const input = mutationInput(global, `mutation${name}`, build);
  const fields: Fields = {
    [`update${name}`]: {
      type,
      args: {
        ...(input ? { data: { type: input } } : {}),
        draft: { type: GraphQLBoolean },
        ...localeArgs(build, false),
      },
      resolve: (_, args, req, info) =>
        updateGlobal(rootContext(req, info, args), {
          slug,
          data: plain(args.data) ?? {},
          draft: args.draft ?? false,
          depth: 0,
        }),
    },
  };
  if (global.drafts) {
    fields[`restoreVersion${name}`] = {
      type,
      args: { id, draft: { type: GraphQLBoolean } },
      resolve: (_, args, req, info) =>
        restoreVersion(rootContext(req, info, args), { global: slug, version: args.id, depth: 0 }),
    };
  }
  return fields;
}
