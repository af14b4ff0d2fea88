/**
 * Checks a list of fields as a project wrote it and fills what the rest of the code reads: each field's
 * dotted `path`, whether its own value is localized, select options as `{ label, value }`, relationTo.
 */
import { MEDIA_SLUG } from './builtin-collections.ts';
import { isColumnField } from './field-tree.ts';
import { FIELD_TYPES, type Field, type SanitizedConfig, type SanitizedField, type SelectOption } from './types.ts';

export type Fail = (key: string, message: string) => never;

export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function sanitizeFields(
  fields: Field[], key: string, parentPath: string, parentLocalized: boolean, reserved: Set<string>,
  localization: SanitizedConfig['localization'], fail: Fail,
): SanitizedField[] {
  const names = new Set<string>();
  return fields.map((field, i) => {
    const at = `${key}[${i}]`;
    if (!field || typeof field !== 'object') fail(at, 'must be an object');
    if (typeof field.name !== 'string' || !FIELD_NAME.test(field.name)) fail(`${at}.name`, `"${field.name}" is not a valid field name`);
    if (!parentPath && reserved.has(field.name)) fail(`${at}.name`, `"${field.name}" is a reserved name`);
    if (names.has(field.name)) fail(`${at}.name`, `duplicate field name "${field.name}"`);
    names.add(field.name);
    if (!FIELD_TYPES.includes(field.type)) fail(`${at}.type`, `unknown field type "${field.type}" (expected one of ${FIELD_TYPES.join(', ')})`);
    if (field.localized && !localization) fail(`${at}.localized`, 'needs the localization setting');
    // `localized` marks the field whose own value is keyed by locale; fields inside it are plain.
    const localized = !parentLocalized && Boolean(field.localized && localization);
    if (field.unique && (localized || parentPath || field.hasMany)) fail(`${at}.unique`, 'unique works only on top-level, single-value, non-localized fields');
    if (field.validate !== undefined && typeof field.validate !== 'function') fail(`${at}.validate`, 'must be a function');
    const fieldPath = parentPath ? `${parentPath}.${field.name}` : field.name;
    const out: SanitizedField = { ...field, path: fieldPath, localized, fields: undefined, options: undefined };
    if (field.type === 'select') {
      if (!Array.isArray(field.options) || field.options.length === 0) fail(`${at}.options`, 'a select field needs options');
      out.options = field.options.map((o): SelectOption => (typeof o === 'string' ? { label: o, value: o } : { label: String(o.label ?? o.value), value: String(o.value) }));
    }
    if (field.type === 'relationship' || field.type === 'upload') {
      const relationTo = field.relationTo ?? (field.type === 'upload' ? MEDIA_SLUG : undefined);
      if (typeof relationTo !== 'string') fail(`${at}.relationTo`, 'a relationship field needs relationTo (a collection slug)');
      out.relationTo = relationTo;
    }
    if (field.type === 'upload' && field.hasMany) fail(`${at}.hasMany`, 'upload fields link one media document; use a relationship to media with hasMany');
    if (field.type === 'array' || field.type === 'group') {
      if (!Array.isArray(field.fields) || field.fields.length === 0) fail(`${at}.fields`, `a ${field.type} field needs fields`);
      // Rows of an array are stored inside their parent; their own fields are never top-level.
      out.fields = sanitizeFields(field.fields, `${at}.fields`, fieldPath, parentLocalized || localized, new Set(['id']), localization, fail);
    }
    if (field.index && (parentPath || !isColumnField(out))) fail(`${at}.index`, 'index works only on top-level, single-value, non-localized fields');
    return out;
  });
}
