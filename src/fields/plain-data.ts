/**
 * A deep copy of plain data (objects, arrays and primitives, as rows and JSON make them), the same as
 * `structuredClone` makes of it but several times faster for a small document; anything else inside (a
 * Date, a Map, an instance of a class) is copied by `structuredClone`, and so is a value nested deeper than
 * plain data goes (a cycle a hook made, which only `structuredClone` copies).
 */
export function copyPlainData<T>(value: T): T {
  try {
    return copy(value, 0);
  } catch (error) {
    if (error !== TOO_DEEP) throw error;
    return structuredClone(value);
  }
}

const MAX_DEPTH = 64;
const TOO_DEEP = Symbol('too deep');

function copy<T>(value: T, depth: number): T {
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) throw TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => copy(item, depth + 1)) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copy((value as Record<string, unknown>)[key], depth + 1);
  return out as T;
}
