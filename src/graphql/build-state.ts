/**
 * What building one schema shares between its parts: the config, the names, and every named type made so
 * far. Plain data and one memo; the builders that walk fields import what maps a field themselves.
 */
import type { GraphQLNamedType, GraphQLObjectType } from 'graphql';
import type { SanitizedConfig } from '../config/types.ts';
import { entityNames } from './names.ts';

export type SchemaBuild = {
  config: SanitizedConfig;
  names: ReturnType<typeof entityNames>;
  /** A collection's document type by slug (relationships point at it before it is complete). */
  docTypes: Map<string, GraphQLObjectType>;
  /** A named type made once: a second request for the same name gets the first. */
  named<T extends GraphQLNamedType>(name: string, make: () => T): T;
};

export function startBuild(config: SanitizedConfig): SchemaBuild {
  const types = new Map<string, GraphQLNamedType>();
  return {
    config,
    names: entityNames(config),
    docTypes: new Map(),
    named<T extends GraphQLNamedType>(name: string, make: () => T): T {
      let type = types.get(name);
      if (!type) types.set(name, (type = make()));
      return type as T;
    },
  };
}
