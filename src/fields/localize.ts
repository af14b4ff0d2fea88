/**
 * Localized values are stored as objects keyed by locale (`{ en: 'Hello', de: 'Hallo' }`), inside the document
 * wherever the field sits. Reads pick one locale (with fallback) or return them all; writes merge one locale in.
 */
import type { SanitizedField } from '../config/types.ts';
import { blockOfRow } from './kinds/block-rows.ts';

export type LocaleOptions = { locale: string; fallbackLocale: string | null };

type Doc = Record<string, unknown>;
/** What a row holds besides its fields. */
const ROW_KEYS = ['id', 'blockType', 'blockName'] as const;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The stored value of a field for one locale: the locale's own value, else the fallback's. */
function pick(value: unknown, options: LocaleOptions): unknown {
  if (!isObject(value)) return value ?? null;
  const own = value[options.locale];
  if (own !== undefined && own !== null) return own;
  if (options.fallbackLocale && options.fallbackLocale !== options.locale) return value[options.fallbackLocale] ?? null;
  return null;
}

/** Stored shape → the shape a reader asked for. `locale: 'all'` returns the stored shape. */
export function localizeForRead(fields: SanitizedField[], doc: Doc, options: LocaleOptions): Doc {
  if (options.locale === 'all') return doc;
  const out: Doc = { ...doc };
  for (const field of fields) {
    if (!(field.name in doc)) continue;
    let value = doc[field.name];
    if (field.localized) value = pick(value, options);
    out[field.name] = localizeChildren(field, value, options);
  }
  return out;
}

function localizeChildren(field: SanitizedField, value: unknown, options: LocaleOptions): unknown {
  if (field.localized) return value;
  if (field.type === 'blocks' && Array.isArray(value)) {
    return value.map((row) => {
      const fields = rowFields(field, row);
      return fields && isObject(row) ? localizeForRead(fields, row, options) : row;
    });
  }
  if (!field.fields) return value;
  if (field.type === 'group' && isObject(value)) return localizeForRead(field.fields, value, options);
  if (field.type === 'array' && Array.isArray(value))
    return value.map((row) => (isObject(row) ? localizeForRead(field.fields!, row, options) : row));
  return value;
}

/** Fields a row of this array or blocks field holds (a block row: its block's). */
function rowFields(field: SanitizedField, row: unknown): SanitizedField[] | null {
  if (field.type === 'blocks') return blockOfRow(field, row)?.fields ?? null;
  return field.fields ?? null;
}

/**
 * Merges incoming values for one locale into the stored document. Non-localized values replace; localized ones
 * replace only their locale. With `locale: 'all'` localized values arrive already keyed by locale.
 */
export function mergeLocalizedWrite(
  fields: SanitizedField[],
  incoming: Doc,
  existing: Doc | null,
  locale: string | null,
): Doc {
  const out: Doc = { ...(existing ?? {}) };
  for (const field of fields) {
    if (!(field.name in incoming)) continue;
    const value = incoming[field.name];
    const previous = existing?.[field.name];
    if (field.localized && locale && locale !== 'all') {
      out[field.name] = { ...(isObject(previous) ? previous : {}), [locale]: value };
    } else if (field.type === 'group' && field.fields && !field.localized && isObject(value)) {
      out[field.name] = mergeLocalizedWrite(field.fields, value, isObject(previous) ? previous : null, locale);
    } else if (
      (field.type === 'array' || field.type === 'blocks') &&
      !field.localized &&
      Array.isArray(value) &&
      hasLocalizedChild(field)
    ) {
      // Rows are matched by id, so another locale's values stay with their row when rows move.
      const oldRows = Array.isArray(previous) ? previous : [];
      out[field.name] = value.map((row, i) => {
        const fields = rowFields(field, row);
        if (!isObject(row) || !fields) return row;
        const byId = oldRows.find((r) => isObject(r) && row.id !== undefined && r.id === row.id);
        const match = byId ?? (field.type === 'array' ? oldRows[i] : undefined);
        const merged = mergeLocalizedWrite(
          fields,
          row,
          isObject(match) && match.blockType === row.blockType ? match : null,
          locale,
        );
        for (const key of ROW_KEYS) if (key in row) merged[key] = row[key];
        return merged;
      });
    } else {
      out[field.name] = value;
    }
  }
  return out;
}

function hasLocalizedChild(field: SanitizedField): boolean {
  const children = [...(field.fields ?? []), ...(field.blocks ?? []).flatMap((b) => b.fields)];
  return children.some((f) => f.localized || hasLocalizedChild(f));
}
