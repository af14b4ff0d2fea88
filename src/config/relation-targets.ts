/** What a relationship or upload field may point at, and which fields have a value of their own in the row. */
import type { Field } from './types.ts';

/** What these questions read of a field (written or sanitized). */
type FieldLike = Pick<Field, 'type' | 'relationTo' | 'virtual'>;

export const isRelationField = (field: FieldLike) => field.type === 'relationship' || field.type === 'upload';

/** A field whose `relationTo` is a list: its value is `{ relationTo, value }` (a list of them with hasMany). */
export const isPolymorphic = (field: FieldLike) => isRelationField(field) && Array.isArray(field.relationTo);

/** The collections a relationship or upload field may point at (empty for other fields). */
export function relationTargets(field: FieldLike): string[] {
  if (!isRelationField(field) || field.relationTo === undefined) return [];
  return Array.isArray(field.relationTo) ? field.relationTo : [field.relationTo];
}

/** Join fields and `virtual` fields are never stored: no column, no key in the stored document. */
export const isStoredField = (field: FieldLike) => field.type !== 'join' && !field.virtual;
