/**
 * Each field kind's GraphQL mapping: its output type (what a read returns), its input type (what a write
 * takes), its where operators, and for relationships how a value is resolved and what it costs. A kind
 * names a scalar and its operator groups, or one of the shapes built here (fields/kinds/kind.ts); a new
 * field type of an existing shape needs nothing here. object-types.ts, mutation-inputs.ts and
 * where-inputs.ts read `mappingOf`, which the build hands them (build-state.ts).
 */
import { isPolymorphic } from '../config/relation-targets.ts';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  GraphQLUnionType,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldResolver,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLScalarType,
} from 'graphql';
import type { SanitizedBlock, SanitizedField } from '../config/types.ts';
import { kindOf } from '../fields/kinds/index.ts';
import type { GraphQLKind, OperatorGroup } from '../fields/kinds/kind.ts';
import { GraphQLDateTime, GraphQLEmailAddress, GraphQLJSON } from './scalars.ts';
import { combineParentName, formatName, toWords } from './names.ts';
import type { SchemaBuild } from './build-state.ts';
import { resolveRelationship } from './resolve-relationship.ts';
import { polymorphicInput, polymorphicOutput, resolvePolymorphic } from './polymorphic.ts';
import { joinArgs, joinOutput, resolveJoin } from './join-field.ts';
import { resolveRichText, richTextFieldArgs } from './rich-text.ts';
import type { GraphQLRequest } from './request-context.ts';
import { COMPARISON, EQUALITY, LISTS, PARTIAL, type Operators } from './operators.ts';
// These two build nested types from this table in turn; they read it from the build, not by importing
// this file back.
import { nestedOutput, outputFields } from './object-types.ts';
import { nestedInput } from './mutation-inputs.ts';

type ScalarName = Extract<GraphQLKind, { scalar: unknown }>['scalar'];
type GraphQLShape = Extract<GraphQLKind, { shape: unknown }>['shape'];

export type FieldMapping = {
  output(field: SanitizedField, parent: string, build: SchemaBuild): GraphQLOutputType;
  input(field: SanitizedField, parent: string, build: SchemaBuild): GraphQLInputType;
  /** null: not filterable as one value (groups are reached by their sub-fields' paths). */
  operators(field: SanitizedField, parent: string, build: SchemaBuild): Operators | null;
  resolve?(field: SanitizedField): GraphQLFieldResolver<Record<string, unknown>, GraphQLRequest, any>;
  /** Arguments of the output field (rich text's `richText`, a join's `where`, `limit`, `page`, `sort`). */
  args?: GraphQLFieldConfigArgumentMap | ((field: SanitizedField, build: SchemaBuild) => GraphQLFieldConfigArgumentMap);
  /** What selecting it costs toward `graphQL.maxComplexity` (1 when absent). */
  complexity?: number;
};

const listIf = <T extends GraphQLOutputType | GraphQLInputType>(many: boolean | undefined, type: T) =>
  (many ? new GraphQLList(type) : type) as T;

function scalar(type: GraphQLOutputType & GraphQLInputType, operators: string[]): FieldMapping {
  return {
    output: (field) => listIf(field.hasMany, type),
    input: (field) => listIf(field.hasMany, type),
    operators: () => ({ names: operators, type }),
  };
}

/** A select's (or radio's) options as an enum: Payload's `Post_category`, inputs `…_MutationInput`, filters `…_Input`. */
function optionsEnum(field: SanitizedField, name: string, build: SchemaBuild): GraphQLEnumType {
  return build.named(name, () => {
    const values: Record<string, { value: string }> = {};
    for (const option of field.options ?? []) {
      let key = formatName(option.value);
      for (let n = 2; key in values; n++) key = `${formatName(option.value)}_${n}`;
      values[key] = { value: option.value };
    }
    if (Object.keys(values).length === 0) values._ = { value: '' };
    return new GraphQLEnumType({ name, values });
  });
}

const select: FieldMapping = {
  output: (field, parent, build) =>
    listIf(field.hasMany, optionsEnum(field, combineParentName(parent, field.name), build)),
  input: (field, parent, build) =>
    listIf(field.hasMany, optionsEnum(field, `${combineParentName(parent, field.name)}_MutationInput`, build)),
  operators: (field, parent, build) => ({
    names: [...EQUALITY, ...LISTS, 'contains'],
    type: optionsEnum(field, `${combineParentName(parent, field.name)}_Input`, build),
  }),
};

/** One collection: its document type; several: Payload's `{ relationTo, value }` object with a union (polymorphic.ts). */
const relationship: FieldMapping = {
  output: (field, parent, build) =>
    isPolymorphic(field)
      ? polymorphicOutput(field, parent, build)
      : listIf(field.hasMany, build.docTypes.get(field.relationTo as string)!),
  input: (field, parent, build) =>
    isPolymorphic(field) ? polymorphicInput(field, parent, build) : listIf(field.hasMany, GraphQLInt),
  operators: () => ({ names: [...EQUALITY, ...LISTS, 'contains'], type: GraphQLJSON }),
  resolve: (field) => (isPolymorphic(field) ? resolvePolymorphic(field) : resolveRelationship(field)),
  complexity: 10,
};

/** Rows of an array, or a group: an object type of their own, named after the parent and the field. */
function nested(list: boolean): FieldMapping {
  return {
    output: (field, parent, build) =>
      listIf(list, nestedOutput(field, combineParentName(parent, toWords(field.name)), build, list)),
    input: (field, parent, build) =>
      listIf(list, nestedInput(field, combineParentName(parent, toWords(field.name)), build)),
    operators: () => null,
  };
}

/** A blocks field: a union of one object type per block (named like Payload: the block's `interfaceName`, else its slug in words). */
const blocks: FieldMapping = {
  output: (field, parent, build) => {
    const name = combineParentName(parent, toWords(field.name));
    return new GraphQLList(
      build.named(
        name,
        () =>
          new GraphQLUnionType({
            name,
            types: () => (field.blocks ?? []).map((block) => blockType(block, build)),
            resolveType: (row: Record<string, unknown>) => {
              const block = field.blocksBySlug?.get(String(row.blockType));
              return block ? blockTypeName(block) : undefined;
            },
          }),
      ),
    );
  },
  input: () => new GraphQLList(GraphQLJSON),
  operators: () => null,
};

const blockTypeName = (block: SanitizedBlock) => formatName(block.interfaceName ?? toWords(block.slug));

function blockType(block: SanitizedBlock, build: SchemaBuild): GraphQLObjectType {
  const name = blockTypeName(block);
  return build.named(
    name,
    () =>
      new GraphQLObjectType({
        name,
        fields: () => ({
          id: { type: GraphQLString },
          blockName: { type: GraphQLString },
          blockType: { type: GraphQLString },
          ...outputFields(block.fields, name, build),
        }),
      }),
  );
}

/** A join field: `{ docs, hasNextPage, totalDocs }` with Payload's arguments (join-field.ts); never written. */
const join: FieldMapping = {
  output: joinOutput,
  input: () => GraphQLJSON,
  operators: () => null,
  args: joinArgs,
  resolve: resolveJoin,
  complexity: 10,
};

/** Layout fields (tabs, row, collapsible) never reach here: their fields are stored, and mapped, at their own level. */
const layout: FieldMapping = {
  output: () => {
    throw new Error('layout fields are flattened before GraphQL sees them');
  },
  input: () => {
    throw new Error('layout fields are flattened before GraphQL sees them');
  },
  operators: () => null,
};

const SCALARS: Record<ScalarName, GraphQLScalarType> = {
  String: GraphQLString,
  Float: GraphQLFloat,
  Boolean: GraphQLBoolean,
  JSON: GraphQLJSON,
  DateTime: GraphQLDateTime,
  EmailAddress: GraphQLEmailAddress,
};

const OPERATOR_GROUPS: Record<OperatorGroup, string[]> = {
  equality: EQUALITY,
  comparison: COMPARISON,
  partial: PARTIAL,
  lists: LISTS,
  like: ['like'],
  near: ['near'],
};

const SHAPES: Record<GraphQLShape, FieldMapping> = {
  select,
  radio: {
    ...select,
    output: (field, parent, build) => optionsEnum(field, combineParentName(parent, field.name), build),
    input: (field, parent, build) =>
      optionsEnum(field, `${combineParentName(parent, field.name)}_MutationInput`, build),
  },
  relationship,
  join,
  array: nested(true),
  group: nested(false),
  // Lexical JSON (docs/rich-text.md), or a string with `richText: html|markdown|text`; not queryable, like Payload's rich text.
  richText: { ...scalar(GraphQLJSON, []), operators: () => null, args: richTextFieldArgs, resolve: resolveRichText },
  blocks,
  layout,
};

/** Each kind's mapping, made once. */
const mappings = new Map<GraphQLKind, FieldMapping>();

/** The mapping of a field's kind: a scalar with its operators, or a shape above. */
export function mappingOf(field: SanitizedField): FieldMapping {
  const described = kindOf(field).graphQL;
  let mapping = mappings.get(described);
  if (!mapping) {
    mapping =
      'shape' in described
        ? SHAPES[described.shape]
        : scalar(
            SCALARS[described.scalar],
            described.operators.flatMap((group) => OPERATOR_GROUPS[group]),
          );
    mappings.set(described, mapping);
  }
  return mapping;
}
