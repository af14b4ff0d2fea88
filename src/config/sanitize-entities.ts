/**
 * One collection or global as the rest of the code reads it: fields checked, access rules and hooks
 * complete (a missing rule requires a logged-in user), compound indexes checked, cache settings filled.
 */
import { labelProblem } from './label-text.ts';
import { sanitizeUploadOption, type UploadDefaults } from './upload-collections.ts';
import { sanitizeDefaultSort, sanitizeVersioning } from './version-options.ts';
import { isColumnField } from './field-tree.ts';
import { sanitizeSearch } from './search-options.ts';
import { sanitizeFields, type Fail } from './sanitize-fields.ts';
import {
  HOOK_NAMES,
  type AccessRule,
  type CollectionConfig,
  type Field,
  type EntityCacheConfig,
  type GlobalConfig,
  type Hook,
  type HookName,
  type Hooks,
  type SanitizedCollection,
  type SanitizedConfig,
  type SanitizedEntityCache,
  type SanitizedGlobal,
} from './types.ts';

const RESERVED_FIELD_NAMES = new Set(['id', 'createdAt', 'updatedAt', 'passwordHash', 'keyHash', 'password']);

export function mergeBuiltIn(
  builtIn: CollectionConfig,
  project: CollectionConfig,
  key: string,
  fail: Fail,
): CollectionConfig {
  // A project may declare a built-in field again with the same type (Payload's templates give `users` a
  // `name` and `media` an `alt`): the built-in definition stands, the project's label, admin options
  // and hooks are added to it. Another type is a mistake.
  const builtInFields = new Map(builtIn.fields.map((f) => [f.name ?? '', f] as const));
  const redeclared = new Map<string, Field>();
  const extraFields = (project.fields ?? []).filter((f, i) => {
    const own = builtInFields.get(f?.name ?? '');
    if (!own) return true;
    if (f.type !== own.type) fail(`${key}.fields[${i}].name`, `"${f.name}" is a built-in field of ${builtIn.slug}`);
    redeclared.set(own.name ?? '', f);
    return false;
  });
  const fields = builtIn.fields.map((own) => {
    const f = redeclared.get(own.name ?? '');
    return f
      ? ({ ...f, ...own, admin: { ...own.admin, ...f.admin }, ...(f.hooks ? { hooks: f.hooks } : {}) } as Field)
      : own;
  });
  const hooks: Hooks = { ...builtIn.hooks };
  for (const name of HOOK_NAMES) {
    const extra = project.hooks?.[name];
    if (extra) hooks[name] = [...(builtIn.hooks?.[name] ?? []), ...extra];
  }
  return {
    ...builtIn,
    ...project,
    fields: [...fields, ...extraFields],
    access: { ...builtIn.access, ...project.access },
    hooks,
    admin: { ...builtIn.admin, ...project.admin },
  };
}

const requireUser: AccessRule = ({ user }) => Boolean(user);

function sanitizeHooks(hooks: Hooks | undefined, key: string, fail: Fail): Record<HookName, Hook[]> {
  const out = {} as Record<HookName, Hook[]>;
  for (const name of Object.keys(hooks ?? {})) {
    if (!HOOK_NAMES.includes(name as HookName))
      fail(`${key}.hooks.${name}`, `unknown hook (expected one of ${HOOK_NAMES.join(', ')})`);
  }
  for (const name of HOOK_NAMES) {
    const list = hooks?.[name] ?? [];
    if (!Array.isArray(list) || !list.every((h) => typeof h === 'function'))
      fail(`${key}.hooks.${name}`, 'must be a list of functions');
    out[name] = list;
  }
  return out;
}

function sanitizeAccess(access: Record<string, unknown> | undefined, names: string[], key: string, fail: Fail) {
  const out: Record<string, AccessRule> = {};
  for (const [name, rule] of Object.entries(access ?? {})) {
    if (rule !== undefined && typeof rule !== 'function' && typeof rule !== 'boolean')
      fail(`${key}.access.${name}`, 'must be a function');
    if (rule !== undefined) out[name] = typeof rule === 'boolean' ? () => rule : (rule as AccessRule);
  }
  for (const name of names) out[name] ??= requireUser;
  return out;
}

function sanitizeTrash(trash: CollectionConfig['trash'], key: string, fail: Fail): SanitizedCollection['trash'] {
  if (trash === undefined || trash === false) return null;
  if (trash === true) return { keepDays: null };
  if (!trash || typeof trash !== 'object') return fail(`${key}.trash`, 'must be true, false or { keepDays }');
  const days = trash.keepDays;
  if (days !== undefined && (typeof days !== 'number' || !(days > 0)))
    fail(`${key}.trash.keepDays`, 'must be a positive number of days');
  return { keepDays: days ?? null };
}

export function sanitizeCollection(
  c: CollectionConfig,
  key: string,
  builtIn: string | undefined,
  localization: SanitizedConfig['localization'],
  uploadDefaults: UploadDefaults,
  fail: Fail,
): SanitizedCollection {
  const versioning = sanitizeVersioning(c, key, fail);
  const { drafts } = versioning;
  if (!Array.isArray(c.fields)) fail(`${key}.fields`, 'must be a list');
  const reserved = new Set(RESERVED_FIELD_NAMES);
  if (drafts) reserved.add('status');
  const trash = sanitizeTrash(c.trash, key, fail);
  for (const which of ['singular', 'plural'] as const) {
    const problem = labelProblem(c.labels?.[which]);
    if (problem) fail(`${key}.labels.${which}`, problem);
  }
  if (trash) reserved.add('deletedAt');
  const { fields, editorFields } = sanitizeFields(c.fields, `${key}.fields`, reserved, localization, fail);
  const fieldsByName = new Map(fields.map((f) => [f.name, f]));
  const indexes = (c.indexes ?? []).map((index, i) => {
    if (!index || !Array.isArray(index.fields) || index.fields.length === 0)
      fail(`${key}.indexes[${i}].fields`, 'must be a non-empty list of field names');
    for (const name of index.fields) {
      const bare = name.replace(/^-/, '');
      const field = fieldsByName.get(bare);
      const systemColumn = ['id', 'createdAt', 'updatedAt'].includes(bare) || (drafts && bare === 'status');
      if (!systemColumn && (!field || !isColumnField(field)))
        fail(`${key}.indexes[${i}].fields`, `"${bare}" is not a top-level field stored in its own column`);
    }
    return { fields: index.fields.map((n) => n.replace(/^-/, '')), unique: Boolean(index.unique) };
  });
  const useAsTitle = c.admin?.useAsTitle;
  if (useAsTitle && useAsTitle !== 'id' && !fieldsByName.has(useAsTitle))
    fail(`${key}.admin.useAsTitle`, `unknown field "${useAsTitle}"`);
  return {
    ...c,
    slug: c.slug,
    kind: 'collection',
    table: c.slug,
    builtIn: builtIn as SanitizedCollection['builtIn'],
    ...versioning,
    trash,
    timestamps: c.timestamps !== false,
    defaultSort: sanitizeDefaultSort(c.defaultSort, key, fail),
    fields,
    editorFields,
    fieldsByName,
    indexes,
    access: sanitizeAccess(c.access, ['read', 'create', 'update', 'delete'], key, fail),
    hooks: sanitizeHooks(c.hooks, key, fail),
    cache: sanitizeEntityCache(c.cache, key, fail),
    search: sanitizeSearch(c.search, fields, key, fail),
    upload: sanitizeUploadOption(c.upload, key, uploadDefaults, fail),
  };
}

export function sanitizeGlobal(
  g: GlobalConfig,
  key: string,
  localization: SanitizedConfig['localization'],
  fail: Fail,
): SanitizedGlobal {
  const versioning = sanitizeVersioning(g, key, fail);
  const { drafts } = versioning;
  if (!Array.isArray(g.fields)) fail(`${key}.fields`, 'must be a list');
  const labelError = labelProblem(g.label);
  if (labelError) fail(`${key}.label`, labelError);
  const reserved = new Set(RESERVED_FIELD_NAMES);
  if (drafts) reserved.add('status');
  const { fields, editorFields } = sanitizeFields(g.fields, `${key}.fields`, reserved, localization, fail);
  return {
    ...g,
    kind: 'global',
    table: `_global_${g.slug}`,
    ...versioning,
    fields,
    editorFields,
    fieldsByName: new Map(fields.map((f) => [f.name, f])),
    access: sanitizeAccess(g.access, ['read', 'update'], key, fail),
    hooks: sanitizeHooks(g.hooks, key, fail),
    cache: sanitizeEntityCache(g.cache, key, fail),
  };
}

/** `dependsOn` names are checked against the whole config once every entity is known (with relationTo, above). */
function sanitizeEntityCache(cache: EntityCacheConfig | undefined, key: string, fail: Fail): SanitizedEntityCache {
  if (cache === undefined) return { enabled: true, control: 'no-cache', dependsOn: [] };
  if (cache === false) return { enabled: false, control: 'no-cache', dependsOn: [] };
  if (typeof cache !== 'object' || cache === null) fail(`${key}.cache`, 'must be false or { control, dependsOn }');
  const control = cache.control ?? 'no-cache';
  if (typeof control !== 'string' || /[\r\n]/.test(control))
    fail(`${key}.cache.control`, 'must be a Cache-Control header value');
  const dependsOn = cache.dependsOn ?? [];
  if (!Array.isArray(dependsOn) || !dependsOn.every((d) => typeof d === 'string'))
    fail(`${key}.cache.dependsOn`, 'must be a list of collection or global slugs');
  return { enabled: true, control, dependsOn };
}
