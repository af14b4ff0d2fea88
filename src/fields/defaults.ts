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
