/**
 * How large a value may be (docs/config.md, "Size limits"). Without limits a few posts with megabyte
 * titles make every list read of them hold megabytes per request. Text-like fields count characters
 * (`maxLength`), structured ones (json, rich text) the bytes of their JSON (`maxSize`); each has a
 * default, its kind's `sizeLimit` (fields/kinds/), and a whole document is bounded too (`maxDocumentSize`
 * on a collection or global).
 */
import type { SanitizedField } from '../config/types.ts';
import { kindOf } from './kinds/index.ts';

/** Bytes of a whole document's JSON (every field, every locale). */
export const DEFAULT_MAX_DOCUMENT_SIZE = 4_194_304;

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '');

/** Why `value` of `field` is too large, or null. */
export function sizeLimitProblem(field: SanitizedField & { maxSize?: number }, value: unknown): string | null {
  const limit = kindOf(field).sizeLimit;
  const chars = field.maxLength ?? (limit && 'chars' in limit ? limit.chars : undefined);
  if (chars !== undefined) {
    const items = Array.isArray(value) ? value : [value];
    if (items.some((item) => typeof item === 'string' && item.length > chars))
      return `This value must be at most ${chars} characters long.`;
    return null;
  }
  const bytes = field.maxSize ?? (limit && 'bytes' in limit ? limit.bytes : undefined);
  if (bytes !== undefined && bytesOf(value) > bytes) return `This value must be at most ${bytes} bytes as JSON.`;
  return null;
}

/** Why a whole document is too large (naming its largest field), or null. */
export function documentSizeProblem(
  doc: Record<string, unknown>,
  limit = DEFAULT_MAX_DOCUMENT_SIZE,
): { message: string; field: string } | null {
  if (bytesOf(doc) <= limit) return null;
  const sizes = Object.entries(doc)
    .map(([key, value]) => [key, bytesOf(value)] as const)
    .sort((a, b) => b[1] - a[1]);
  return {
    message: `The document must be at most ${limit} bytes as JSON; "${sizes[0][0]}" is the largest field.`,
    field: sizes[0][0],
  };
}
