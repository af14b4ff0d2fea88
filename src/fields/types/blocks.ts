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

/** Checks every row with `validateRow` (the block's fields); answers the rows as stored. */
export async function validateBlockRows(
  field: SanitizedField, rows: unknown[], key: string,
  validateRow: (fields: SanitizedField[], row: Doc, key: string) => Promise<{ values: Doc; errors: FieldError[] }>,
): Promise<{ value: Doc[]; errors: FieldError[] }> {
  const errors: FieldError[] = [];
  const value: Doc[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const at = `${key}.${i}`;
    if (!isObject(row)) { errors.push({ field: at, message: 'Each row must be an object.' }); continue; }
    const block = blockOfRow(field, row);
    if (!block) {
      const known = field.blocks!.map((b) => b.slug).join(', ');
      const message = typeof row.blockType === 'string' ? `Unknown block type "${row.blockType}" (expected one of ${known}).` : `Each row needs a blockType (one of ${known}).`;
      errors.push({ field: `${at}.blockType`, message });
      continue;
    }
    if (row.blockName !== undefined && row.blockName !== null && typeof row.blockName !== 'string') {
      errors.push({ field: `${at}.blockName`, message: 'The block name must be text.' });
    }
    const result = await validateRow(block.fields, row, at);
    errors.push(...result.errors);
    const stored: Doc = { id: rowId(row), blockType: block.slug };
    if (typeof row.blockName === 'string') stored.blockName = row.blockName;
    value.push({ ...stored, ...result.values });
  }
  return { value, errors };
}
