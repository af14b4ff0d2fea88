/**
 * The per-field options beyond the value's type: relationship targets (one collection or several),
 * filterOptions, field hooks, `virtual`, `admin` (with its `condition`), and the shape of a join field.
 * References between collections (relationTo, a join's `on`) are checked by ./field-references.ts once
 * every collection is known.
 */
import { MEDIA_SLUG } from './builtin-collections.ts';
import { FIELD_HOOK_NAMES, type Field, type FieldHook, type SanitizedField } from './types.ts';

type Fail = (key: string, message: string) => never;
const isPlainObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

export function sanitizeFieldOptions(field: Field, out: SanitizedField, at: string, nested: boolean, fail: Fail): void {
  if (field.type === 'relationship' || field.type === 'upload') {
    const relationTo = field.relationTo ?? (field.type === 'upload' ? MEDIA_SLUG : undefined);
    const many = Array.isArray(relationTo);
    if (
      many ? relationTo.length === 0 || !relationTo.every((s) => typeof s === 'string') : typeof relationTo !== 'string'
    ) {
      fail(`${at}.relationTo`, 'a relationship field needs relationTo (a collection slug, or a list of them)');
    }
    if (many && new Set(relationTo).size !== relationTo.length) fail(`${at}.relationTo`, 'lists a collection twice');
    out.relationTo = many ? [...relationTo] : relationTo;
    const filter = field.filterOptions;
    if (filter !== undefined && typeof filter !== 'function' && !isPlainObject(filter))
      fail(`${at}.filterOptions`, 'must be a where object or a function returning one');
  }
  if (field.hooks !== undefined) {
    if (!isPlainObject(field.hooks)) fail(`${at}.hooks`, 'must be an object of hook lists');
    const hooks: SanitizedField['hooks'] = {};
    for (const [name, value] of Object.entries(field.hooks)) {
      if (!FIELD_HOOK_NAMES.includes(name as never))
        fail(`${at}.hooks.${name}`, `unknown field hook (expected one of ${FIELD_HOOK_NAMES.join(', ')})`);
      const list = (Array.isArray(value) ? value : [value]) as FieldHook[];
      if (!list.every((h) => typeof h === 'function'))
        fail(`${at}.hooks.${name}`, 'must be a function or a list of functions');
      if (list.length) hooks[name as keyof typeof hooks] = list;
    }
    out.hooks = hooks;
  }
  if (field.virtual !== undefined && typeof field.virtual !== 'boolean') fail(`${at}.virtual`, 'must be true or false');
  if (field.virtual && (field.required || field.unique || field.index))
    fail(`${at}.virtual`, 'a virtual field is not stored, so it cannot be required, unique or indexed');
  if (field.admin !== undefined) {
    if (!isPlainObject(field.admin)) fail(`${at}.admin`, 'must be an object');
    const condition = field.admin.condition;
    if (condition !== undefined && typeof condition !== 'function')
      fail(`${at}.admin.condition`, 'must be a function of (data, siblingData)');
    if (field.admin.position !== undefined && field.admin.position !== 'sidebar')
      fail(`${at}.admin.position`, "can only be 'sidebar'");
  }
  if (field.type === 'join') sanitizeJoinShape(field, out, at, nested, fail);
}

function sanitizeJoinShape(field: Field, out: SanitizedField, at: string, nested: boolean, fail: Fail): void {
  if (nested) fail(at, 'join fields sit at the top level of a collection');
  if (typeof field.collection !== 'string')
    fail(`${at}.collection`, 'a join field needs collection (the slug whose documents point here)');
  if (typeof field.on !== 'string' || field.on === '')
    fail(`${at}.on`, 'a join field needs on (the relationship field of that collection, a dot path)');
  if (field.where !== undefined && !isPlainObject(field.where)) fail(`${at}.where`, 'must be a where object');
  const limit = field.defaultLimit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    fail(`${at}.defaultLimit`, 'must be a whole number from 1 to 100');
  if (field.defaultSort !== undefined && typeof field.defaultSort !== 'string')
    fail(`${at}.defaultSort`, 'must be a field name, optionally with a leading -');
  for (const option of ['required', 'unique', 'index', 'localized', 'hasMany'] as const) {
    if (field[option]) fail(`${at}.${option}`, 'a join field is read-only and not stored');
  }
  out.defaultLimit = limit;
}
