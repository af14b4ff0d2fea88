/**
 * The `where` a client sends, as types: the operators and their operands come from src/query/operators.ts,
 * so the server, the admin's filter builder and the typed APIs name the same operators. Types only (the
 * admin may import this folder; nothing of it runs).
 */
import type { OPERATORS, OperandKind, OperandKindOf, Operator, OperatorName } from '../query/operators.ts';

export type { OperandKind, Operator as WhereOperator, OperatorName };

/** The operators (by their own names) whose operand is of kind `K`. */
export type OperatorsOfKind<K extends OperandKind> = {
  [O in Operator]: (typeof OPERATORS)[O] extends K ? O : never;
}[Operator];

/** What an operand of each kind may be: query strings send text, JSON `where` numbers and booleans too. */
type Operand = {
  value: unknown;
  list: unknown[] | string;
  text: string;
  boolean: boolean;
  point: string;
};

/** One field's conditions, under any spelling of the operators. */
export type WhereCondition = { [N in OperatorName]?: Operand[OperandKindOf<N>] };
