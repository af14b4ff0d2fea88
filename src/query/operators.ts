/**
 * The where operators, in one place: each operator's name and the kind of operand it takes, and Payload's
 * longer spellings of the comparisons, which are accepted as aliases. The query compiler, the OpenAPI
 * document, the GraphQL filters, the MCP tool descriptions, the realtime delete check and (through the
 * types of src/wire/) the admin's filter builder all read their lists from here. Plain data: no imports.
 */

/**
 * What an operator compares with: `value` one value of the field's type, `list` several (a list or a
 * comma-separated string), `text` words to search for, `boolean` true or false, `point` a longitude,
 * latitude and distances.
 */
export type OperandKind = 'value' | 'list' | 'text' | 'boolean' | 'point';

/** The operand kinds in the order documents list their operators. */
export const OPERAND_KINDS: readonly OperandKind[] = ['value', 'list', 'text', 'boolean', 'point'];

/** Every operator by its own name, with its operand kind, in the order documents list them. */
export const OPERATORS = {
  equals: 'value',
  not_equals: 'value',
  gt: 'value',
  gte: 'value',
  lt: 'value',
  lte: 'value',
  in: 'list',
  not_in: 'list',
  like: 'text',
  not_like: 'text',
  contains: 'text',
  exists: 'boolean',
  near: 'point',
} as const satisfies Record<string, OperandKind>;

export type Operator = keyof typeof OPERATORS;

/** Payload's spellings of the comparisons (in the order Payload lists them), each meaning the operator named. */
export const ALIASES = {
  greater_than_equal: 'gte',
  greater_than: 'gt',
  less_than_equal: 'lte',
  less_than: 'lt',
} as const satisfies Record<string, Operator>;

export type OperatorAlias = keyof typeof ALIASES;
/** Every spelling a `where` accepts. */
export type OperatorName = Operator | OperatorAlias;
/** The operand kind of a spelling. */
export type OperandKindOf<N extends OperatorName> = N extends Operator
  ? (typeof OPERATORS)[N]
  : N extends OperatorAlias
    ? (typeof OPERATORS)[(typeof ALIASES)[N]]
    : never;

const operators = Object.keys(OPERATORS) as Operator[];

/** The operator a spelling means, or null for a name that is none. */
export function operatorOf(name: string): Operator | null {
  if (Object.hasOwn(OPERATORS, name)) return name as Operator;
  return Object.hasOwn(ALIASES, name) ? ALIASES[name as OperatorAlias] : null;
}

/** The operand kind of a spelling, or null for a name that is none. */
export function operandKindOf(name: string): OperandKind | null {
  const operator = operatorOf(name);
  return operator && OPERATORS[operator];
}

/** Payload's spelling of an operator: its alias where it has one, else its own name. */
export function payloadSpelling(operator: Operator): OperatorName {
  return (Object.keys(ALIASES) as OperatorAlias[]).find((alias) => ALIASES[alias] === operator) ?? operator;
}

/**
 * Every spelling of the operators of a kind: their own names first, then the aliases in the same order
 * (`gt`, `gte`, …, `greater_than`, `greater_than_equal`, …).
 */
export function spellingsOf(kind: OperandKind): OperatorName[] {
  const own = operators.filter((op) => OPERATORS[op] === kind);
  const aliases = own.flatMap((op) => (Object.keys(ALIASES) as OperatorAlias[]).filter((a) => ALIASES[a] === op));
  return [...own, ...aliases];
}

/** Every spelling, kind by kind. */
export const OPERATOR_NAMES: readonly OperatorName[] = OPERAND_KINDS.flatMap(spellingsOf);

/** The operators by Payload's spellings, in the order of `OPERATORS` (as help texts list them). */
export const PAYLOAD_OPERATORS: readonly OperatorName[] = operators.map(payloadSpelling);
