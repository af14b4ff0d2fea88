/**
 * Rows of `array` and `blocks` fields: bounds on how many and how deep (docs/content-model.md), and row
 * ids, which are strings kept across saves and made when a row arrives without one.
 */
import { MAX_ROWS } from '../../config/sanitize-blocks.ts';
import type { SanitizedField } from '../../config/types.ts';

/** Rows inside rows (blocks in arrays in blocks …) may nest this deep in a document. */
export const MAX_ROW_NESTING = 8;

/**
 * The message for a list of rows that breaks a bound, or null. `key` is the field's path in the document;
 * `minimum` false leaves `minRows` to publishing (a draft may hold fewer rows).
 */
export function rowBoundsError(field: SanitizedField, rows: unknown[], key: string, minimum = true): string | null {
  const depth = key.split('.').filter((segment) => /^\d+$/.test(segment)).length + 1;
  if (depth > MAX_ROW_NESTING) return `Rows may nest at most ${MAX_ROW_NESTING} levels deep.`;
  const max = Math.min(field.maxRows ?? MAX_ROWS, MAX_ROWS);
  if (rows.length > max) return `This field takes at most ${max} rows.`;
  if (minimum && field.minRows !== undefined && rows.length < field.minRows)
    return `This field needs at least ${field.minRows} rows.`;
  return null;
}

/** The row's own id when it has a usable one, else a new one. */
export function rowId(row: Record<string, unknown>): string {
  if (typeof row.id === 'string' && row.id && row.id.length <= 64) return row.id;
  if (typeof row.id === 'number' && Number.isSafeInteger(row.id)) return String(row.id);
  return crypto.randomUUID().replaceAll('-', '').slice(0, 24);
}
