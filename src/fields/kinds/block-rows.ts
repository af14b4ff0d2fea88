/**
 * `blocks` fields: a list of rows `{ id, blockType, blockName?, …the block's fields }`. Each row is checked
 * against its own block's fields; errors name the row (`layout.2.blockType`, `layout.0.title`).
 */
import type { SanitizedBlock, SanitizedField } from '../../config/types.ts';
import { rowId } from './rows.ts';

type Doc = Record<string, unknown>;
type FieldError = { message: string; field: string };
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The block a stored or incoming row belongs to, or undefined. */
export function blockOfRow(field: SanitizedField, row: unknown): SanitizedBlock | undefined {
  return isObject(row) && typeof row.blockType === 'string' ? field.blocksBySlug?.get(row.blockType) : undefined;
}

type ValidateRow = (fields: SanitizedField[], row: Doc, key: string) => Promise<{ values: Doc; errors: FieldError[] }>;

/** Checks every row with `validateRow` (the block's fields); answers the rows as stored. */
export async function validateBlockRows(
  field: SanitizedField,
  rows: unknown[],
  key: string,
  validateRow: ValidateRow,
): Promise<{ value: Doc[]; errors: FieldError[] }> {
  const errors: FieldError[] = [];
  const value: Doc[] = [];
  for (let i = 0; i < rows.length; i++) {
    const result = await validateBlockRow(field.blocks!, field.blocksBySlug!, rows[i], `${key}.${i}`, validateRow);
    errors.push(...result.errors);
    if (result.row) value.push(result.row);
  }
  return { value, errors };
}

/** One row of blocks (a blocks field's, or a block embedded in rich text) as stored, with what is wrong with it. */
export async function validateBlockRow(
  blocks: SanitizedBlock[],
  bySlug: Map<string, SanitizedBlock>,
  row: unknown,
  at: string,
  validateRow: ValidateRow,
): Promise<{ row: Doc | null; errors: FieldError[] }> {
  if (!isObject(row)) return { row: null, errors: [{ field: at, message: 'Each row must be an object.' }] };
  const block = typeof row.blockType === 'string' ? bySlug.get(row.blockType) : undefined;
  if (!block) {
    const known = blocks.map((b) => b.slug).join(', ');
    const message =
      typeof row.blockType === 'string'
        ? `Unknown block type "${row.blockType}" (expected one of ${known}).`
        : `Each row needs a blockType (one of ${known}).`;
    return { row: null, errors: [{ field: `${at}.blockType`, message }] };
  }
  const errors: FieldError[] = [];
  if (row.blockName !== undefined && row.blockName !== null && typeof row.blockName !== 'string') {
    errors.push({ field: `${at}.blockName`, message: 'The block name must be text.' });
  }
  const result = await validateRow(block.fields, row, at);
  errors.push(...result.errors);
  const stored: Doc = { id: rowId(row), blockType: block.slug };
  if (typeof row.blockName === 'string') stored.blockName = row.blockName;
  return { row: { ...stored, ...result.values }, errors };
}
