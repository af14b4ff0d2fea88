/** The schema of a config, built once and kept with it (docs/graphql.md). */
import { GraphQLObjectType, GraphQLSchema, printSchema } from 'graphql';
import type { SanitizedConfig } from '../config/types.ts';
import { startBuild } from './build-state.ts';
import { collectionDocType, collectionMutations, collectionQueries } from './collection-fields.ts';
import { globalMutations, globalQueries } from './global-fields.ts';
import { authMutations, authQueries } from './auth-fields.ts';

const built = new WeakMap<SanitizedConfig, GraphQLSchema>();

export function schemaOf(config: SanitizedConfig): GraphQLSchema {
  let schema = built.get(config);
  if (!schema) built.set(config, (schema = buildSchema(config)));
  return schema;
}

function buildSchema(config: SanitizedConfig): GraphQLSchema {
  const build = startBuild(config);
  // Every document type first: relationships anywhere may point at any of them.
  for (const collection of config.collections) collectionDocType(collection, build);
  const query = {},
    mutation = {};
  for (const collection of config.collections) {
    Object.assign(query, collectionQueries(collection, build));
    Object.assign(mutation, collectionMutations(collection, build));
  }
  for (const global of config.globals) {
    Object.assign(query, globalQueries(global, build));
    Object.assign(mutation, globalMutations(global, build));
  }
  Object.assign(query, authQueries(build));
  Object.assign(mutation, authMutations(build));
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
  });
}

/** The schema in GraphQL's SDL, for frontends' code generators (`cms generate:graphql-schema`). */
export const schemaSDL = (config: SanitizedConfig) => printSchema(schemaOf(config));
