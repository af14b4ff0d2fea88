/**
 * The where operators (src/query/operators.ts) in groups, by Payload's spellings (`not_like` is ours as
 * well), and those of the id.
 */
import { GraphQLInt, type GraphQLInputType } from 'graphql';
import { ALIASES, spellingsOf, type OperatorName } from '../query/operators.ts';

const aliased = new Set<OperatorName>([...Object.keys(ALIASES), ...Object.values(ALIASES)] as OperatorName[]);

/** `equals`, `not_equals`. */
export const EQUALITY = spellingsOf('value').filter((name) => !aliased.has(name));
/** Payload's spellings of the comparisons, in its order. */
export const COMPARISON = Object.keys(ALIASES) as OperatorName[];
export const PARTIAL = spellingsOf('text');
export const LISTS = spellingsOf('list');

export type Operators = { names: string[]; type: GraphQLInputType };

/** The id's operators (`Int`). */
export const ID_OPERATORS: Operators = { names: [...EQUALITY, ...COMPARISON, ...LISTS], type: GraphQLInt };
