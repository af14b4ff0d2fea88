/**
 * What building one schema shares between its parts: the config, the names, the fields' mappings, and
 * every named type made so far.
 */
import type { GraphQLNamedType, GraphQLObjectType } from 'graphql';
import type { SanitizedConfig, SanitizedField } from '../config/types.ts';
import { entityNames } from './names.ts';
import { mappingOf, type FieldMapping } from './field-types.ts';

export type SchemaBuild = {
  config: SanitizedConfig;
  names: ReturnType<typeof entityNames>;
  /** A collection's document type by slug (relationships point at it before it is complete). */
  docTypes: Map<string, GraphQLObjectType>;
  /**
   * A field's mapping (field-types.ts), for the builders that walk fields (object-types.ts, mutation-inputs.ts,
   * where-inputs.ts). Groups, arrays, blocks and joins call those builders back, so the builders read
   * it here: importing field-types.ts, which imports them, would close a circle of imports.
   */
  mappingOf(field: SanitizedField): FieldMapping;
  /** A named type made once: a second request for the same name gets the first. */
  named<T extends GraphQLNamedType>(name: string, make: () => T): T;
};

export function startBuild(config: SanitizedConfig): SchemaBuild {
  const types = new Map<string, GraphQLNamedType>();
  return {
    config,
    names: entityNames(config),
    docTypes: new Map(),
    mappingOf,
    named<T extends GraphQLNamedType>(name: string, make: () => T): T {
      let type = types.get(name);
      if (!type) types.set(name, (type = make()));
      return type as T;
    },
  };
}
