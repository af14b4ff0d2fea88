/** Payload's where operators in groups (its spellings; `not_like` is ours as well), and those of the id. */
import { GraphQLInt, type GraphQLInputType } from 'graphql';

export const EQUALITY = ['equals', 'not_equals'];
export const COMPARISON = ['greater_than_equal', 'greater_than', 'less_than_equal', 'less_than'];
export const PARTIAL = ['like', 'not_like', 'contains'];
export const LISTS = ['in', 'not_in'];

export type Operators = { names: string[]; type: GraphQLInputType };

/** The id's operators (`Int`). */
export const ID_OPERATORS: Operators = { names: [...EQUALITY, ...COMPARISON, ...LISTS], type: GraphQLInt };
