/**
 * One entry per field type: its output type (what a read returns), its input type (what a write takes),
 * its where operators, and for relationships how a value is resolved and what it costs. New field types
 * add one entry here; object-types.ts, mutation-inputs.ts and where-inputs.ts read only this table, which
 * the build hands them (build-state.ts).
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
} from 'graphql';
import type { FieldType, SanitizedBlock, SanitizedField } from '../config/types.ts';
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

export const FIELD_MAPPINGS: Record<FieldType, FieldMapping> = {
  text: scalar(GraphQLString, [...EQUALITY, ...PARTIAL, ...LISTS]),
  textarea: scalar(GraphQLString, [...EQUALITY, ...PARTIAL, ...LISTS]),
  markdown: scalar(GraphQLString, [...EQUALITY, ...PARTIAL]),
  email: scalar(GraphQLEmailAddress, [...EQUALITY, ...PARTIAL, ...LISTS]),
  number: scalar(GraphQLFloat, [...EQUALITY, ...COMPARISON, ...LISTS]),
  checkbox: scalar(GraphQLBoolean, EQUALITY),
  date: scalar(GraphQLDateTime, [...EQUALITY, ...COMPARISON, 'like']),
  json: scalar(GraphQLJSON, [...EQUALITY, ...PARTIAL]),
  select,
  relationship,
  upload: relationship,
  join,
  array: nested(true),
  group: nested(false),
  radio: {
    ...select,
    output: (field, parent, build) => optionsEnum(field, combineParentName(parent, field.name), build),
    input: (field, parent, build) =>
      optionsEnum(field, `${combineParentName(parent, field.name)}_MutationInput`, build),
  },
  code: scalar(GraphQLString, [...EQUALITY, ...PARTIAL, ...LISTS]),
  point: scalar(GraphQLJSON, [...EQUALITY, 'near']),
  // Lexical JSON (docs/rich-text.md), or a string with `richText: html|markdown|text`; not queryable, like Payload's rich text.
  richText: { ...scalar(GraphQLJSON, []), operators: () => null, args: richTextFieldArgs, resolve: resolveRichText },
  blocks,
  tabs: layout,
  row: layout,
  collapsible: layout,
};
