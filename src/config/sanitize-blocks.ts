/** The blocks of a `blocks` field, and the row bounds of `array` and `blocks` fields, checked at start. */
import type { Fail } from './sanitize-fields.ts';
import type { Field, SanitizedBlock, SanitizedField } from './types.ts';

const BLOCK_SLUG = /^[A-Za-z][A-Za-z0-9_-]{0,62}$/;
/** Names a row of a block keeps for itself. */
export const BLOCK_ROW_KEYS = new Set(['id', 'blockType', 'blockName']);
/** Rows one array or blocks field may hold (docs/content-model.md); `maxRows` may only lower it. */
export const MAX_ROWS = 1000;

/**
 * Checks the fields of one block, written at `key`, as one level of rows: its stored fields and its fields
 * as written. The field sanitizer passes it in, already bound to where the block sits (path, locale,
 * depth), because a block's fields are a field tree of their own: importing the sanitizer here would make
 * the two files import each other.
 */
export type SanitizeBlockFields = (
  fields: unknown,
  key: string,
) => { fields: SanitizedField[]; editorFields: SanitizedField[] };

export function sanitizeBlocks(
  blocks: unknown,
  key: string,
  sanitizeFields: SanitizeBlockFields,
  fail: Fail,
): { blocks: SanitizedBlock[]; blocksBySlug: Map<string, SanitizedBlock> } {
  if (!Array.isArray(blocks) || blocks.length === 0) fail(key, 'a blocks field needs a non-empty list of blocks');
  const blocksBySlug = new Map<string, SanitizedBlock>();
  const list = (blocks as Field['blocks'])!.map((block, i) => {
    const at = `${key}[${i}]`;
    if (!block || typeof block !== 'object') fail(at, 'must be an object');
    if (typeof block.slug !== 'string' || !BLOCK_SLUG.test(block.slug))
      fail(`${at}.slug`, `a block needs a slug (letters, digits, - and _), got ${JSON.stringify(block.slug ?? null)}`);
    if (blocksBySlug.has(block.slug)) fail(`${at}.slug`, `duplicate block slug "${block.slug}"`);
    if (
      block.interfaceName !== undefined &&
      (typeof block.interfaceName !== 'string' || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(block.interfaceName))
    ) {
      fail(`${at}.interfaceName`, 'must be a TypeScript identifier');
    }
    const { fields, editorFields } = sanitizeFields(block.fields, `${at}.fields`);
    const out: SanitizedBlock = { ...block, fields, editorFields };
    blocksBySlug.set(block.slug, out);
    return out;
  });
  return { blocks: list, blocksBySlug };
}

/**
 * A rich text field's `blocks` (embedded in its text, checked like a blocks field's rows) and `features`.
 * Fields inside embedded blocks are plain: the text is one value, localized as a whole or not at all.
 */
export function sanitizeRichTextOptions(
  field: Field,
  at: string,
  sanitizeFields: SanitizeBlockFields,
  fail: Fail,
): Partial<SanitizedField> {
  if (
    field.features !== undefined &&
    !(Array.isArray(field.features) && field.features.every((f) => typeof f === 'string'))
  ) {
    fail(`${at}.features`, 'must be a list of feature names');
  }
  if (field.blocks === undefined) return { blocks: undefined };
  const { blocks, blocksBySlug } = sanitizeBlocks(field.blocks, `${at}.blocks`, sanitizeFields, fail);
  return { blocks: undefined, richTextBlocks: blocks, richTextBlocksBySlug: blocksBySlug };
}

export function sanitizeRowBounds(field: Field, at: string, fail: Fail): void {
  const check = (name: 'minRows' | 'maxRows') => {
    const value = field[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 0 || value > MAX_ROWS))
      fail(`${at}.${name}`, `must be a whole number from 0 to ${MAX_ROWS}`);
  };
  check('minRows');
  check('maxRows');
  if (field.minRows !== undefined && field.maxRows !== undefined && field.minRows > field.maxRows)
    fail(`${at}.minRows`, 'is more than maxRows');
}
