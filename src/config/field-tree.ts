/** Questions about a sanitized field tree that every layer asks (storage, queries, caching). */
import type { SanitizedField } from './types.ts';
import { isPolymorphic } from './relation-targets.ts';

/** Fields that get a real column of their own (and so can be indexed, sorted and filtered fast). */
export function isColumnField(field: SanitizedField): boolean {
  if (field.localized || field.hasMany || isPolymorphic(field)) return false;
  return !['json', 'array', 'group', 'blocks', 'point', 'richText'].includes(field.type);
}

/** Fields that hold other fields in their value: a group's object, rows of an array or of blocks. */
export function holdsFields(field: SanitizedField): boolean {
  return field.type === 'group' || field.type === 'array' || field.type === 'blocks';
}

/**
 * Visits every stored field of the tree, depth first, parents before their children (inside groups, array
 * rows, every block, and the blocks a rich text field may embed). Stored field lists hold no layout fields; given an editor list (`editorFields`),
 * layout fields are visited and their children too.
 */
export function walkFields(fields: SanitizedField[], visit: (field: SanitizedField) => void): void {
  for (const field of fields) {
    visit(field);
    if (field.fields) walkFields(field.fields, visit);
    else if (field.editorFields) walkFields(field.editorFields, visit);
    for (const tab of field.tabs ?? []) walkFields(tab.editorFields, visit);
    for (const block of field.blocks ?? []) walkFields(block.fields, visit);
    for (const block of field.richTextBlocks ?? []) walkFields(block.fields, visit);
  }
}
