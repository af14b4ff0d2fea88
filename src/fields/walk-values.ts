/**
 * A walker over (field tree, value): every place in a document where a field of a wanted kind holds a
 * value, at any nesting (groups, array rows, block rows, named tabs, which are groups), with the object and
 * key that hold it so a caller can replace it in place (population does). Layout fields never appear in
 * stored field lists, so they need no case here.
 */
import type { SanitizedField } from '../config/types.ts';
import { blockOfRow } from './types/blocks.ts';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

export type ValueLocation = {
  field: SanitizedField;
  /** The object (or, for one locale of a localized value, the per-locale record) that holds the value. */
  holder: Record<string, unknown>;
  key: string;
  value: unknown;
  /** Where it is in the document, e.g. `layout.2.cover` (a locale of a localized value adds its code). */
  path: string;
};

export type WalkOptions = {
  /** Localized values are records keyed by locale (stored documents, `locale=all` reads); else one locale's value. */
  keyedByLocale: boolean;
};

/** Calls `visit` for every non-empty value of a field for which `wanted(field)` holds. */
export function visitValues(
  fields: SanitizedField[], doc: Doc, wanted: (field: SanitizedField) => boolean, visit: (location: ValueLocation) => void,
  options: WalkOptions, prefix = '',
): void {
  for (const field of fields) {
    const value = doc[field.name];
    if (value === null || value === undefined) continue;
    const path = prefix ? `${prefix}.${field.name}` : field.name;
    if (field.localized && options.keyedByLocale && isObject(value)) {
      for (const [locale, own] of Object.entries(value)) {
        if (own !== null && own !== undefined) visitOne(field, value, locale, own, `${path}.${locale}`, wanted, visit, options);
      }
    } else {
      visitOne(field, doc, field.name, value, path, wanted, visit, options);
    }
  }
}

function visitOne(
  field: SanitizedField, holder: Doc, key: string, value: unknown, path: string,
  wanted: (field: SanitizedField) => boolean, visit: (location: ValueLocation) => void, options: WalkOptions,
): void {
  if (wanted(field)) visit({ field, holder, key, value, path });
  // Values inside a localized container are plain: only the container's own value is keyed by locale.
  const inner = { keyedByLocale: options.keyedByLocale && !field.localized };
  if (field.type === 'group' && isObject(value)) visitValues(field.fields!, value, wanted, visit, inner, path);
  if ((field.type === 'array' || field.type === 'blocks') && Array.isArray(value)) {
    value.forEach((row, i) => {
      const rowFields = field.type === 'blocks' ? blockOfRow(field, row)?.fields : field.fields;
      if (rowFields && isObject(row)) visitValues(rowFields, row, wanted, visit, inner, `${path}.${i}`);
    });
  }
}

/** Relationship and upload fields: the values population replaces with documents. */
export const isRelationField = (field: SanitizedField) => field.type === 'relationship' || field.type === 'upload';
