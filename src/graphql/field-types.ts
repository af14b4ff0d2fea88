/**
 * The GraphQL types of the scalar field kinds and the where operators of each operator group a kind names
 * (fields/kinds/kind.ts). A kind of a shape (options, a relation, rows, a group, blocks, a join, rich text,
 * layout) is built by each builder that walks fields, with a `switch` over the shapes that tsc holds
 * complete: output-fields.ts, mutation-inputs.ts and where-inputs.ts. Those import this file; it imports
 * none of them, so the schema's parts import one way.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLList,
  GraphQLString,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLScalarType,
} from 'graphql';
import type { SanitizedField } from '../config/types.ts';
import type { GraphQLKind, OperatorGroup } from '../fields/kinds/kind.ts';
import { GraphQLDateTime, GraphQLEmailAddress, GraphQLJSON } from './scalars.ts';
import { COMPARISON, EQUALITY, LISTS, PARTIAL, type Operators } from './operators.ts';

export type ScalarKind = Extract<GraphQLKind, { scalar: unknown }>;
export type GraphQLShape = Extract<GraphQLKind, { shape: unknown }>['shape'];

const SCALARS: Record<ScalarKind['scalar'], GraphQLScalarType> = {
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

export const listIf = <T extends GraphQLOutputType | GraphQLInputType>(many: boolean | undefined, type: T) =>
  (many ? new GraphQLList(type) : type) as T;

/** A scalar kind's value as read and as written: its scalar, a list of it with `hasMany`. */
export const scalarType = (kind: ScalarKind, field: SanitizedField) => listIf(field.hasMany, SCALARS[kind.scalar]);

/** A scalar kind's where operators, each taking its scalar (a list of it for the list operators). */
export const scalarOperators = (kind: ScalarKind): Operators => ({
  names: kind.operators.flatMap((group) => OPERATOR_GROUPS[group]),
  type: SCALARS[kind.scalar],
});

/** The end of a `switch` over the shapes: tsc refuses a call here while a shape has no case of its own. */
export function unknownShape(shape: never): never {
  throw new Error(`no GraphQL mapping for the shape ${String(shape)}`);
}
