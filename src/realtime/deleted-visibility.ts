/**
 * Whether a subscriber could read a document that is gone (a delete event): its read rule is asked as for
 * a read, and a rule that answers with a filter is checked against the deleted document's stored values in
 * memory. Conditions this check cannot decide (operators beyond comparisons, membership and existence)
 * count as "not readable": a subscriber is never told about a document it might not have seen.
 */
import type { SanitizedCollection, Where } from '../config/types.ts';
import { checkAccess } from '../access/check-access.ts';
import type { OperationContext } from '../operation-context.ts';

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

function test(operator: string, actual: unknown, expected: unknown): boolean {
  switch (operator) {
    case 'equals':
      return same(actual, expected);
    case 'not_equals':
      return !same(actual, expected);
    case 'in':
      return listOf(expected).some((e) => same(actual, e));
    case 'not_in':
      return !listOf(expected).some((e) => same(actual, e));
    case 'exists':
      return (actual !== null && actual !== undefined) === (expected === true || expected === 'true');
    case 'gt':
    case 'greater_than':
      return (actual as number) > (expected as number);
    case 'gte':
    case 'greater_than_equal':
      return (actual as number) >= (expected as number);
    case 'lt':
    case 'less_than':
      return (actual as number) < (expected as number);
    case 'lte':
    case 'less_than_equal':
      return (actual as number) <= (expected as number);
    default:
      return false;
  }
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
