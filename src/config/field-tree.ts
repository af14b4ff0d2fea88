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

/**
 * Whether `test` holds for a field of a stored tree, at any depth (groups, array rows, every block), as a
 * function answering once per field list: the read and write paths ask it of every document.
 */
export function anyFieldInTree(test: (field: SanitizedField) => boolean): (fields: SanitizedField[]) => boolean {
  const answers = new WeakMap<SanitizedField[], boolean>();
  const inTree = (fields: SanitizedField[]): boolean => {
    let answer = answers.get(fields);
    if (answer === undefined) {
      answer = fields.some(
        (f) =>
          test(f) || (f.fields !== undefined && inTree(f.fields)) || (f.blocks?.some((b) => inTree(b.fields)) ?? false),
      );
      answers.set(fields, answer);
    }
    return answer;
  };
  return inTree;
}
