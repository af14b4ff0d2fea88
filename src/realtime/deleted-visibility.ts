/**
 * Whether a subscriber could read a document that is gone (a delete event): its read rule is asked as for
 * a read, and a rule that answers with a filter is checked against the deleted document's stored values in
 * memory. Conditions this check cannot decide (operators beyond comparisons, membership and existence)
 * count as "not readable": a subscriber is never told about a document it might not have seen.
 */
import type { SanitizedCollection, Where } from '../config/types.ts';
import { checkAccess } from '../access/check-access.ts';
import type { OperationContext } from '../operation-context.ts';
import { operatorOf, type Operator } from '../query/operators.ts';

type Doc = Record<string, unknown>;

export async function couldRead(
  ctx: OperationContext,
  collection: SanitizedCollection,
  id: number,
  doc: Doc,
): Promise<boolean> {
  let where: Where | null;
  try {
    where = await checkAccess(ctx, collection, 'read', { id });
  } catch {
    return false;
  }
  return where === null || matches(where, doc, ctx.locale);
}

function valueAt(doc: Doc, path: string, locale: string | null): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) value = value && typeof value === 'object' ? (value as Doc)[part] : undefined;
  // A localized value is kept per locale.
  if (value && typeof value === 'object' && !Array.isArray(value) && locale && locale in (value as Doc))
    value = (value as Doc)[locale];
  return value;
}

const listOf = (v: unknown) => (Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v]);
const same = (a: unknown, b: unknown) =>
  a === b || (a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b));

type Test = (actual: unknown, expected: unknown) => boolean;

/** What each operator means for a stored value; null where this check cannot decide (text search, distance). */
const TESTS: Record<Operator, Test | null> = {
  equals: (actual, expected) => same(actual, expected),
  not_equals: (actual, expected) => !same(actual, expected),
  gt: (actual, expected) => (actual as number) > (expected as number),
  gte: (actual, expected) => (actual as number) >= (expected as number),
  lt: (actual, expected) => (actual as number) < (expected as number),
  lte: (actual, expected) => (actual as number) <= (expected as number),
  in: (actual, expected) => listOf(expected).some((e) => same(actual, e)),
  not_in: (actual, expected) => !listOf(expected).some((e) => same(actual, e)),
  like: null,
  not_like: null,
  contains: null,
  exists: (actual, expected) =>
    (actual !== null && actual !== undefined) === (expected === true || expected === 'true'),
  near: null,
};

function test(name: string, actual: unknown, expected: unknown): boolean {
  const operator = operatorOf(name);
  const check = operator && TESTS[operator];
  return check ? check(actual, expected) : false;
}

export function matches(where: Where, doc: Doc, locale: string | null): boolean {
  for (const [key, condition] of Object.entries(where as Record<string, unknown>)) {
    if (key === 'and' || key === 'or') {
      const parts = (condition as Where[]) ?? [];
      const ok =
        key === 'and' ? parts.every((w) => matches(w, doc, locale)) : parts.some((w) => matches(w, doc, locale));
      if (!ok) return false;
      continue;
    }
    if (!condition || typeof condition !== 'object') return false;
    const actual = valueAt(doc, key === '_status' ? 'status' : key, locale);
    for (const [operator, expected] of Object.entries(condition)) if (!test(operator, actual, expected)) return false;
  }
  return true;
}
