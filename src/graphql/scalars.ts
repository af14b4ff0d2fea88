/** The scalars beside GraphQL's own: `JSON` (any value), `DateTime` (ISO 8601 strings), `EmailAddress`. */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

function literalValue(node: ValueNode, variables?: Record<string, unknown> | null): unknown {
  switch (node.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
    case Kind.ENUM:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((f) => [f.name.value, literalValue(f.value, variables)]));
    case Kind.LIST:
      return node.values.map((v) => literalValue(v, variables));
    case Kind.NULL:
      return null;
    case Kind.VARIABLE:
      return variables ? variables[node.name.value] : undefined;
  }
}

export const GraphQLJSON = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: literalValue,
});

function dateTime(value: unknown): string {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    throw new GraphQLError('DateTime must be an ISO 8601 date string.');
  return value;
}

export const GraphQLDateTime = new GraphQLScalarType({
  name: 'DateTime',
  description: 'An ISO 8601 date and time, as a string.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : value),
  parseValue: dateTime,
  parseLiteral: (node) => dateTime(node.kind === Kind.STRING ? node.value : undefined),
});

function email(value: unknown): string {
  if (typeof value !== 'string') throw new GraphQLError('EmailAddress must be a string.');
  return value;
}

export const GraphQLEmailAddress = new GraphQLScalarType({
  name: 'EmailAddress',
  description: 'An email address (checked by the field on write).',
  serialize: (value) => value,
  parseValue: email,
  parseLiteral: (node) => email(node.kind === Kind.STRING ? node.value : undefined),
});
