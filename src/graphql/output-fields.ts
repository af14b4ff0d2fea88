/**
 * The output fields of a document, group, array row or block, each by its kind: a scalar (field-types.ts),
 * or a shape built here: options as an enum, a relation (one collection's document type, or polymorphic.ts),
 * a join (join-field.ts), rich text with its arguments (rich-text.ts), and the object types of groups, rows
 * and blocks, whose fields are output fields in turn.
 */
import {
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  GraphQLUnionType,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import type { SanitizedBlock, SanitizedField } from '../config/types.ts';
import { isPolymorphic } from '../config/relation-targets.ts';
import { kindOf } from '../fields/kinds/index.ts';
import { listIf, scalarType, unknownShape } from './field-types.ts';
import { optionsEnum } from './options-enum.ts';
import { combineParentName, formatName, toWords } from './names.ts';
import { inSchema } from './in-schema.ts';
import { GraphQLJSON } from './scalars.ts';
import type { SchemaBuild } from './build-state.ts';
import type { GraphQLRequest } from './request-context.ts';
import { resolveRelationship } from './resolve-relationship.ts';
import { polymorphicOutput, resolvePolymorphic } from './polymorphic.ts';
import { joinArgs, joinOutput, resolveJoin } from './join-field.ts';
import { resolveRichText, richTextFieldArgs } from './rich-text.ts';
import type { ListBound } from './limits.ts';

type Doc = Record<string, unknown>;
type Field = GraphQLFieldConfig<Doc, GraphQLRequest>;
/** A field's output type, with its arguments and resolver, and what selecting it costs (1 when absent). */
type Output = { type: GraphQLOutputType; args?: Field['args']; resolve?: Field['resolve']; complexity?: number };

/** The fields of a document, group, row or block, each mapped by its kind. */
export function outputFields(
  fields: SanitizedField[],
  parent: string,
  build: SchemaBuild,
): GraphQLFieldConfigMap<Doc, GraphQLRequest> {
  const out: GraphQLFieldConfigMap<Doc, GraphQLRequest> = {};
  for (const field of fields.filter(inSchema)) {
    const { type, args, resolve, complexity } = outputOf(field, parent, build);
    out[field.name] = {
      type,
      ...(args ? { args } : {}),
      ...(resolve ? { resolve } : {}),
      extensions: { ...(complexity ? { complexity } : {}), ...listBoundOf(field) },
    };
  }
  return out;
}

function outputOf(field: SanitizedField, parent: string, build: SchemaBuild): Output {
  const kind = kindOf(field).graphQL;
  if ('scalar' in kind) return { type: scalarType(kind, field) };
  // Types of its own are named after the parent and the field: `Post_category`, `Post_Seo`.
  const name = combineParentName(parent, field.name);
  const nested = combineParentName(parent, toWords(field.name));
  switch (kind.shape) {
    case 'select':
      return { type: listIf(field.hasMany, optionsEnum(field, name, build)) };
    case 'radio':
      return { type: optionsEnum(field, name, build) };
    case 'relationship':
      return isPolymorphic(field)
        ? { type: polymorphicOutput(field, parent, build), resolve: resolvePolymorphic(field), complexity: 10 }
        : {
            type: listIf(field.hasMany, build.docTypes.get(field.relationTo as string)!),
            resolve: resolveRelationship(field),
            complexity: 10,
          };
    // `{ docs, hasNextPage, totalDocs }` with Payload's arguments (join-field.ts).
    case 'join':
      return {
        type: joinOutput(field, parent, build),
        args: joinArgs(field, build),
        resolve: resolveJoin(field),
        complexity: 10,
      };
    case 'array':
      return { type: new GraphQLList(nestedOutput(field, nested, build, true)) };
    case 'group':
      return { type: nestedOutput(field, nested, build, false) };
    // Lexical JSON (docs/rich-text.md), or a string with `richText: html|markdown|text`.
    case 'richText':
      return { type: listIf(field.hasMany, GraphQLJSON), args: richTextFieldArgs, resolve: resolveRichText(field) };
    case 'blocks':
      return { type: new GraphQLList(blocksUnion(field, nested, build)) };
    // Layout fields (tabs, row, collapsible) never reach here: their fields are stored, and mapped, at their own level.
    case 'layout':
      throw new Error('layout fields are flattened before GraphQL sees them');
    default:
      return unknownShape(kind.shape);
  }
}

/**
 * What the cost measure counts a list field as holding (limits.ts): rows of an array or blocks field and
 * the documents of a hasMany relationship up to `maxRows` (10 without it); a join's page its `defaultLimit`.
 */
function listBoundOf(field: SanitizedField): ListBound {
  if (field.type === 'join') return { pageDefault: field.defaultLimit ?? 10 };
  const many = field.type === 'array' || field.type === 'blocks' || (field.hasMany && RELATED.has(field.type));
  return many ? { listBound: field.maxRows ?? 10 } : {};
}
const RELATED = new Set(['relationship', 'upload']);

/** A group's object, or an array's row (rows carry their `id`). */
function nestedOutput(field: SanitizedField, name: string, build: SchemaBuild, rows: boolean): GraphQLOutputType {
  return build.named(
    name,
    () =>
      new GraphQLObjectType({
        name,
        fields: () => ({
          ...(rows ? { id: { type: GraphQLString } } : {}),
          ...outputFields(field.fields ?? [], name, build),
        }),
      }),
  );
}

/** A blocks field's rows: a union of one object type per block (named like Payload: its `interfaceName`, else its slug in words). */
function blocksUnion(field: SanitizedField, name: string, build: SchemaBuild): GraphQLUnionType {
  return build.named(
    name,
    () =>
      new GraphQLUnionType({
        name,
        types: () => (field.blocks ?? []).map((block) => blockType(block, build)),
        resolveType: (row: Doc) => {
          const block = field.blocksBySlug?.get(String(row.blockType));
          return block ? blockTypeName(block) : undefined;
        },
      }),
  );
}

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
