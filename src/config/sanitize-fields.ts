/**
 * Checks a list of fields as a project wrote it and fills what the rest of the code reads: each field's
 * dotted `path`, whether its own value is localized, select options as `{ label, value }`, relationTo.
 * Layout fields (tabs, row, collapsible) are flattened away from the stored fields: their fields sit at
 * their own level, and a named tab becomes a group. The arrangement as written is kept as `editorFields`.
 */
import { sanitizeFieldOptions } from './field-options.ts';
import { labelProblem } from './label-text.ts';
import { isColumnField } from './field-tree.ts';
import {
  BLOCK_ROW_KEYS,
  sanitizeBlocks,
  sanitizeRichTextOptions,
  sanitizeRowBounds,
  type SanitizeBlockFields,
} from './sanitize-blocks.ts';
import {
  FIELD_TYPES,
  LAYOUT_FIELD_TYPES,
  type Field,
  type SanitizedConfig,
  type SanitizedField,
  type SanitizedTab,
  type SelectOption,
} from './types.ts';

export type Fail = (key: string, message: string) => never;

export const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** Containers (groups, arrays, blocks, named tabs) may nest this deep in a config (docs/content-model.md). */
export const MAX_FIELD_NESTING = 32;

/** One level of stored fields: a document, a group, a row of an array or block. */
type FieldLevel = {
  path: string;
  /** Inside a localized container, whose fields are then plain. */
  localized: boolean;
  reserved: Set<string>;
  names: Set<string>;
  depth: number;
  stored: SanitizedField[];
};
type FieldEnv = { localization: SanitizedConfig['localization']; fail: Fail };

export function sanitizeFields(
  fields: Field[],
  key: string,
  reserved: Set<string>,
  localization: SanitizedConfig['localization'],
  fail: Fail,
): { fields: SanitizedField[]; editorFields: SanitizedField[] } {
  const level = newLevel('', false, reserved, 1);
  const editorFields = sanitizeLevel(fields, key, level, { localization, fail });
  return { fields: level.stored, editorFields };
}

function newLevel(path: string, localized: boolean, reserved: Set<string>, depth: number): FieldLevel {
  return { path, localized, reserved, names: new Set(), depth, stored: [] };
}

/** The fields of one level as written (layout fields included); stored fields are added to `level.stored`. */
/** Where each sanitized field was written in the config (`collections[2].fields[1].tabs[0].fields[3]`), for later checks' messages. */
const configKeys = new WeakMap<SanitizedField, string>();
export const configKeyOf = (field: SanitizedField): string | undefined => configKeys.get(field);

function sanitizeLevel(fields: unknown, key: string, level: FieldLevel, env: FieldEnv): SanitizedField[] {
  // A collection may have no fields of its own; a container needs some.
  if (!Array.isArray(fields) || (fields.length === 0 && level.depth > 1))
    env.fail(key, 'needs a non-empty list of fields');
  if (level.depth > MAX_FIELD_NESTING) env.fail(key, `fields nest more than ${MAX_FIELD_NESTING} levels deep`);
  return (fields as Field[]).map((field, i) => {
    const at = `${key}[${i}]`;
    if (!field || typeof field !== 'object') env.fail(at, 'must be an object');
    if (!FIELD_TYPES.includes(field.type))
      env.fail(`${at}.type`, `unknown field type "${field.type}" (expected one of ${FIELD_TYPES.join(', ')})`);
    if ((LAYOUT_FIELD_TYPES as readonly string[]).includes(field.type)) return sanitizeLayout(field, at, level, env);
    const out = sanitizeField(field, at, level, env);
    configKeys.set(out, at);
    level.stored.push(out);
    return out;
  });
}

/** Claims `name` at this level: valid, not reserved, not taken by a sibling (also one inside a row or unnamed tab). */
function claimName(name: unknown, at: string, level: FieldLevel, env: FieldEnv): string {
  if (typeof name !== 'string' || !FIELD_NAME.test(name)) env.fail(`${at}.name`, `"${name}" is not a valid field name`);
  const valid = name as string;
  if (level.reserved.has(valid)) env.fail(`${at}.name`, `"${valid}" is a reserved name`);
  if (level.names.has(valid)) env.fail(`${at}.name`, `duplicate field name "${valid}"`);
  level.names.add(valid);
  return valid;
}

function sanitizeLayout(field: Field, at: string, level: FieldLevel, env: FieldEnv): SanitizedField {
  const out: SanitizedField = {
    ...field,
    name: '',
    path: '',
    localized: false,
    fields: undefined,
    options: undefined,
    tabs: undefined,
    blocks: undefined,
    hooks: undefined,
  };
  if (field.type !== 'tabs') {
    out.editorFields = sanitizeLevel(field.fields, `${at}.fields`, level, env);
    return out;
  }
  if (!Array.isArray(field.tabs) || field.tabs.length === 0) env.fail(`${at}.tabs`, 'a tabs field needs tabs');
  out.tabs = field.tabs!.map((tab, j): SanitizedTab => {
    const tabAt = `${at}.tabs[${j}]`;
    if (!tab || typeof tab !== 'object') env.fail(tabAt, 'must be an object');
    if (tab.name === undefined)
      return { ...tab, editorFields: sanitizeLevel(tab.fields, `${tabAt}.fields`, level, env) };
    // A named tab stores its fields as a group under its name.
    const name = claimName(tab.name, tabAt, level, env);
    const path = level.path ? `${level.path}.${name}` : name;
    const inner = newLevel(path, level.localized, new Set(), level.depth + 1);
    const editorFields = sanitizeLevel(tab.fields, `${tabAt}.fields`, inner, env);
    level.stored.push({
      name,
      type: 'group',
      label: tab.label,
      path,
      localized: false,
      fields: inner.stored,
      editorFields,
      admin: tab.admin,
    });
    return { ...tab, editorFields };
  });
  return out;
}

function sanitizeField(field: Field, at: string, level: FieldLevel, env: FieldEnv): SanitizedField {
  const { fail, localization } = env;
  const name = claimName(field.name, at, level, env);
  const topLevel = level.path === '';
  if (field.localized && !localization) fail(`${at}.localized`, 'needs the localization setting');
  // `localized` marks the field whose own value is keyed by locale; fields inside it are plain.
  const localized = !level.localized && Boolean(field.localized && localization);
  if (field.unique && (localized || !topLevel || field.hasMany))
    fail(`${at}.unique`, 'unique works only on top-level, single-value, non-localized fields');
  if (field.validate !== undefined && typeof field.validate !== 'function')
    fail(`${at}.validate`, 'must be a function');
  // `false` asks for no label at all, as Payload's templates write it.
  const labelError = field.label === false ? null : labelProblem(field.label);
  if (labelError) fail(`${at}.label`, labelError);
  const path = topLevel ? name : `${level.path}.${name}`;
  const out: SanitizedField = {
    ...field,
    name,
    path,
    localized,
    fields: undefined,
    options: undefined,
    blocks: undefined,
    tabs: undefined,
    hooks: undefined,
  };
  if (field.type === 'select' || field.type === 'radio') {
    if (!Array.isArray(field.options) || field.options.length === 0)
      fail(`${at}.options`, `a ${field.type} field needs options`);
    if (field.type === 'radio' && field.hasMany)
      fail(`${at}.hasMany`, 'a radio field holds one value; use a select with hasMany');
    out.options = field.options!.map(
      (o): SelectOption =>
        typeof o === 'string'
          ? { label: o, value: o }
          : {
              label: o.label !== undefined && typeof o.label === 'object' ? o.label : String(o.label ?? o.value),
              value: String(o.value),
            },
    );
    for (const [i, o] of field.options!.entries()) {
      const problem = typeof o === 'object' ? labelProblem(o.label) : null;
      if (problem) fail(`${at}.options.${i}.label`, problem);
    }
  }
  sanitizeFieldOptions(field, out, at, !topLevel, fail);
  if (field.type === 'upload' && field.hasMany)
    fail(`${at}.hasMany`, 'upload fields link one media document; use a relationship to media with hasMany');
  if (field.hasMany && ['blocks', 'point', 'code', 'array', 'group', 'richText'].includes(field.type))
    fail(`${at}.hasMany`, `a ${field.type} field does not take hasMany`);
  if (field.type === 'array' || field.type === 'group') {
    // Rows of an array are stored inside their parent; their own fields are never top-level.
    const inner = newLevel(path, level.localized || localized, new Set(), level.depth + 1);
    out.editorFields = sanitizeLevel(field.fields, `${at}.fields`, inner, env);
    out.fields = inner.stored;
  }
  if (field.type === 'array' || field.type === 'blocks') sanitizeRowBounds(field, at, fail);
  if (field.type === 'blocks') {
    const blockFields = blockFieldsAt(path, level.localized || localized, level.depth + 1, env);
    Object.assign(out, sanitizeBlocks(field.blocks, `${at}.blocks`, blockFields, fail));
  }
  if (field.type === 'richText') {
    const blockFields = blockFieldsAt(path, true, level.depth + 1, env);
    Object.assign(out, sanitizeRichTextOptions(field, at, blockFields, fail));
  }
  if (field.index && (!topLevel || !isColumnField(out)))
    fail(`${at}.index`, 'index works only on top-level, single-value, non-localized fields');
  return out;
}

/** The fields of each block of a field at `path`: every block is a level of rows of its own. */
function blockFieldsAt(path: string, localized: boolean, depth: number, env: FieldEnv): SanitizeBlockFields {
  return (fields, key) => {
    const level = newLevel(path, localized, BLOCK_ROW_KEYS, depth);
    const editorFields = sanitizeLevel(fields, key, level, env);
    return { fields: level.stored, editorFields };
  };
}
