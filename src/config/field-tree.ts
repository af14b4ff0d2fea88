/** Questions about a sanitized field tree that every layer asks (storage, queries, caching). */
import type { SanitizedField } from './types.ts';

/** Fields that get a real column of their own (and so can be indexed, sorted and filtered fast). */
export function isColumnField(field: SanitizedField): boolean {
  if (field.localized || field.hasMany) return false;
  return !['json', 'array', 'group'].includes(field.type);
}

/** Visits every field of the tree, depth first, parents before their children. */
export function walkFields(fields: SanitizedField[], visit: (field: SanitizedField) => void): void {
  for (const field of fields) {
    visit(field);
    if (field.fields) walkFields(field.fields, visit);
  }
}
