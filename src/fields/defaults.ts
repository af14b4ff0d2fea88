/** A field's `defaultValue`, computed in one place for creates, previews of new documents and unsaved globals. */
import type { SanitizedField, User } from '../config/types.ts';

/** The field's default for this user and locale (a fresh copy), or undefined when it has none. */
export function defaultOf(field: SanitizedField, args: { user: User | null; locale?: string }): unknown {
  if (typeof field.defaultValue === 'function') return (field.defaultValue as (a: unknown) => unknown)(args);
  return field.defaultValue === undefined ? undefined : structuredClone(field.defaultValue);
}

/** The default as stored: a localized field's value keyed by `locale` (when there is one). */
export function storedDefaultOf(
  field: SanitizedField,
  args: { user: User | null; locale?: string },
  storeLocale: string | null,
): unknown {
  const value = defaultOf(field, args);
  if (value === undefined) return undefined;
  return field.localized && storeLocale ? { [storeLocale]: value } : value;
}

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `data` with every missing value that has a default filled in, at any depth: inside groups (named tabs
 * are groups), in every array row and every block row, as Payload does. A group that is missing but holds
 * fields with defaults is made to hold them. Localized containers are left as they are (their value is
 * kept per locale). Nothing given is changed: containers on the way are copied, not written into.
 */
export function withDefaults(
  fields: SanitizedField[],
  data: Doc,
  args: { user: User | null; locale?: string },
  storeLocale: string | null,
): Doc {
  const out = { ...data };
  for (const field of fields) {
    if (out[field.name] === undefined) {
      const value = storedDefaultOf(field, args, storeLocale);
      if (value !== undefined) out[field.name] = value;
      else if (field.type === 'group' && !field.localized) {
        const group = withDefaults(field.fields ?? [], {}, args, storeLocale);
        if (Object.keys(group).length) out[field.name] = group;
      }
    }
    if (field.localized) continue;
    const value = out[field.name];
    if (field.type === 'group' && isObject(value))
      out[field.name] = withDefaults(field.fields ?? [], value, args, storeLocale);
    else if (field.type === 'array' && Array.isArray(value))
      out[field.name] = value.map((row) =>
        isObject(row) ? withDefaults(field.fields ?? [], row, args, storeLocale) : row,
      );
    else if (field.type === 'blocks' && Array.isArray(value))
      out[field.name] = value.map((row) => {
        const block =
          isObject(row) && typeof row.blockType === 'string' ? field.blocksBySlug?.get(row.blockType) : undefined;
        return block ? withDefaults(block.fields, row as Doc, args, storeLocale) : row;
      });
  }
  return out;
}

/** A document never saved: every field with its default (nested ones included), else null, in field order. */
export function documentOfDefaults(
  fields: SanitizedField[],
  args: { user: User | null; locale?: string },
  storeLocale: string | null,
): Doc {
  const filled = withDefaults(fields, {}, args, storeLocale);
  const doc: Doc = {};
  for (const field of fields) doc[field.name] = filled[field.name] ?? null;
  return doc;
}
