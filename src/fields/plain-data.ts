/**
 * A deep copy of plain data (objects, arrays and primitives, as rows and JSON make them), the same as
 * `structuredClone` makes of it but several times faster for a small document; anything else inside (a
 * Date, a Map, an instance of a class) is copied by `structuredClone`. Plain data holds no cycles.
 */
export function copyPlainData<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copyPlainData) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyPlainData((value as Record<string, unknown>)[key]);
  return copy as T;
}
