/**
 * Turns a project's config into the complete, checked config the rest of the code reads:
 * every default filled, every reference checked, once, at start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../errors.ts';
import { sanitizeTrustProxy } from './trust-proxy.ts';
import { DEFAULT_POOL_SIZE, describeUrl, isPostgresUrl } from '../db/postgres/connect.ts';
import { sanitizeBackups } from './backups.ts';
import { sanitizeEmail } from './email.ts';
import { apiKeysCollection, mediaCollection, usersCollection, API_KEYS_SLUG, MEDIA_SLUG, USERS_SLUG } from './builtin-collections.ts';
import {
  FIELD_TYPES, HOOK_NAMES,
  type AccessRule, type CollectionConfig, type EntityCacheConfig, type SanitizedEntityCache, type Field, type GlobalConfig, type Hook, type HookName, type Hooks,
  type SanitizedCollection, type SanitizedConfig, type SanitizedField, type SanitizedGlobal, type SelectOption, type UserConfig,
} from './types.ts';

const SLUG = /^[a-z][a-z0-9_-]{0,62}$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const LOCALE = /^[A-Za-z]{2,8}([_-][A-Za-z0-9]{1,8})*$/;
const RESERVED_COLLECTION_SLUGS = new Set(['globals', 'jobs', 'webhook-deliveries', 'backups', '_admin', 'preview']);
const RESERVED_FIELD_NAMES = new Set(['id', 'createdAt', 'updatedAt', 'passwordHash', 'keyHash', 'password']);
const BUILTIN_SLUGS = [USERS_SLUG, MEDIA_SLUG, API_KEYS_SLUG];

type Options = { configPath: string | null; rootDir: string; dev?: boolean; database?: string };

export function sanitizeConfig(input: UserConfig, options: Options): SanitizedConfig {
  const where = options.configPath ?? 'built-in defaults';
  const fail = (key: string, message: string): never => {
    throw new ConfigError(`Config error in ${where}: ${key}: ${message}`);
  };
  if (input === null || typeof input !== 'object' || Array.isArray(input)) fail('(root)', 'the config must be an object (default export)');

  const resolve = (p: string) => (path.isAbsolute(p) ? p : path.join(options.rootDir, p));
  const auth = sanitizeAuth(input.auth ?? {}, fail);
  const localization = sanitizeLocalization(input.localization, fail);
  const routes = {
    api: sanitizeRoute(input.routes?.api ?? '/api/cms', 'routes.api', fail),
    admin: sanitizeRoute(input.routes?.admin ?? '/admin', 'routes.admin', fail),
  };
  // A command's own target (`migrate:engine --to`) beats DATABASE_URL, which beats the config.
  const database = databaseSettings(options.database || process.env.DATABASE_URL || input.database || 'data/cms.db', input.databasePool, resolve, fail);

  const declared = input.collections ?? [];
  if (!Array.isArray(declared)) fail('collections', 'must be a list');
  const seen = new Set<string>();
  declared.forEach((c, i) => {
    if (!c || typeof c !== 'object') fail(`collections[${i}]`, 'must be an object');
    if (typeof c.slug !== 'string' || !SLUG.test(c.slug)) fail(`collections[${i}].slug`, `"${c.slug}" is not a valid slug (lowercase letters, digits, - and _)`);
    if (RESERVED_COLLECTION_SLUGS.has(c.slug)) fail(`collections[${i}].slug`, `"${c.slug}" is reserved`);
    if (seen.has(c.slug)) fail(`collections[${i}].slug`, `duplicate collection slug "${c.slug}"`);
    seen.add(c.slug);
  });

  const builtIns: CollectionConfig[] = [usersCollection(auth.roles), mediaCollection(), apiKeysCollection()];
  const merged: { config: CollectionConfig; key: string; builtIn?: string }[] = builtIns.map((builtIn) => {
    const index = declared.findIndex((c) => c.slug === builtIn.slug);
    if (index === -1) return { config: builtIn, key: builtIn.slug, builtIn: builtIn.slug };
    return { config: mergeBuiltIn(builtIn, declared[index], `collections[${index}]`, fail), key: `collections[${index}]`, builtIn: builtIn.slug };
  });
  declared.forEach((c, i) => {
    if (!BUILTIN_SLUGS.includes(c.slug)) merged.push({ config: c, key: `collections[${i}]` });
  });

  const collections = merged.map(({ config, key, builtIn }) => sanitizeCollection(config, key, builtIn, localization, fail));
  const collectionsBySlug = new Map(collections.map((c) => [c.slug, c]));

  const globalsInput = input.globals ?? [];
  if (!Array.isArray(globalsInput)) fail('globals', 'must be a list');
  const globalSlugs = new Set<string>();
  const globals = globalsInput.map((g, i) => {
    if (!g || typeof g !== 'object') fail(`globals[${i}]`, 'must be an object');
    if (typeof g.slug !== 'string' || !SLUG.test(g.slug)) fail(`globals[${i}].slug`, `"${g.slug}" is not a valid slug`);
    if (globalSlugs.has(g.slug)) fail(`globals[${i}].slug`, `duplicate global slug "${g.slug}"`);
    globalSlugs.add(g.slug);
    return sanitizeGlobal(g, `globals[${i}]`, localization, fail);
  });
  const globalsBySlug = new Map(globals.map((g) => [g.slug, g]));

  // References are checked once every collection is known.
  for (const entity of [...collections, ...globals]) {
    const key = entity.kind === 'collection' ? `collections(${entity.slug})` : `globals(${entity.slug})`;
    walkFields(entity.fields, (field) => {
      if ((field.type === 'relationship' || field.type === 'upload') && !collectionsBySlug.has(field.relationTo!)) {
        fail(`${key}.fields.${field.path}.relationTo`, `unknown collection "${field.relationTo}"`);
      }
    });
    for (const slug of entity.cache.dependsOn) {
      if (!collectionsBySlug.has(slug) && !globalsBySlug.has(slug)) fail(`${key}.cache.dependsOn`, `unknown collection or global "${slug}"`);
    }
  }

  const webhooks = sanitizeWebhooks(input.webhooks, collectionsBySlug, globalsBySlug, fail);
  const upload = input.upload ?? {};
  const uploadDir = resolve(upload.dir ?? 'uploads/');
  const cors = input.cors ?? [];
  if (cors !== '*' && !(Array.isArray(cors) && cors.every((o) => typeof o === 'string'))) fail('cors', "must be a list of origins or '*'");

  return {
    configPath: options.configPath,
    rootDir: options.rootDir,
    serverURL: input.serverURL ? String(input.serverURL).replace(/\/+$/, '') : null,
    secret: input.secret ?? null,
    ...database,
    // PostgreSQL keeps nothing in it but what one box needs for itself (sharp's native files, staged uploads).
    dataDir: database.databaseEngine === 'sqlite' ? path.dirname(database.databasePath) : resolve('data'),
    migrationsDir: migrationsDirFor(database.databaseEngine, resolve('migrations')),
    routes,
    cors: cors === '*' ? '*' : cors.map(normalizeOrigin),
    trustProxy: sanitizeTrustProxy(input.trustProxy, fail),
    auth,
    email: sanitizeEmail(input.email, process.env, fail),
    upload: {
      maxFileSize: positiveNumber(upload.maxFileSize ?? 10_000_000, 'upload.maxFileSize', fail),
      mimeTypes: upload.mimeTypes ?? ['image/*', 'application/pdf'],
      imageSizes: (upload.imageSizes ?? []).map((s, i) => {
        if (!s || typeof s.name !== 'string' || !FIELD_NAME.test(s.name)) fail(`upload.imageSizes[${i}].name`, 'must be a simple name');
        positiveNumber(s.width, `upload.imageSizes[${i}].width`, fail);
        if (s.height !== undefined) positiveNumber(s.height, `upload.imageSizes[${i}].height`, fail);
        return { name: s.name, width: s.width, height: s.height };
      }),
      dir: uploadDir,
      storage: upload.storage ?? null,
    },
    backups: sanitizeBackups(input.backups, { dir: uploadDir, storage: upload.storage ?? null }, resolve, fail),
    localization,
    webhooks,
    jobs: { secret: input.jobs?.secret ?? null },
    cache: input.cache === false ? null : { maxSize: positiveNumber(input.cache?.maxSize ?? 32 * 1024 * 1024, 'cache.maxSize', fail) },
    collections,
    globals,
    collectionsBySlug,
    globalsBySlug,
    dev: Boolean(options.dev),
  };
}

type Fail = (key: string, message: string) => never;

function sanitizeRoute(route: string, key: string, fail: Fail): string {
  if (typeof route !== 'string' || !route.startsWith('/')) fail(key, 'must start with /');
  return route === '/' ? '' : route.replace(/\/+$/, '');
}

function positiveNumber(value: unknown, key: string, fail: Fail): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) fail(key, 'must be a positive number');
  return value as number;
}

export function normalizeOrigin(origin: string): string {
  try {
    return new URL(origin).origin;
  } catch {
    return origin.replace(/\/+$/, '');
  }
}

function sanitizeAuth(auth: NonNullable<UserConfig['auth']>, fail: Fail): SanitizedConfig['auth'] {
  const roles = auth.roles ?? ['admin', 'editor'];
  if (!Array.isArray(roles) || !roles.every((r) => typeof r === 'string' && r.length > 0)) fail('auth.roles', 'must be a list of role names');
  if (!roles.includes('admin')) fail('auth.roles', 'must include "admin"');
  return {
    roles,
    tokenExpiration: positiveNumber(auth.tokenExpiration ?? 604_800, 'auth.tokenExpiration', fail),
    maxLoginAttempts: positiveNumber(auth.maxLoginAttempts ?? 5, 'auth.maxLoginAttempts', fail),
    lockWindow: positiveNumber(auth.lockWindow ?? 900, 'auth.lockWindow', fail),
    trustedOrigins: (auth.trustedOrigins ?? []).map(normalizeOrigin),
    requireTwoFactor: requiredTwoFactorRoles(auth.requireTwoFactor, roles, fail),
  };
}

function requiredTwoFactorRoles(input: unknown, roles: string[], fail: Fail): string[] {
  if (input === undefined) return [];
  if (!Array.isArray(input)) fail('auth.requireTwoFactor', 'must be a list of roles, e.g. [\'admin\']');
  for (const role of input) if (!roles.includes(role)) fail('auth.requireTwoFactor', `"${role}" is not one of auth.roles`);
  return input;
}

function sanitizeLocalization(input: UserConfig['localization'], fail: Fail): SanitizedConfig['localization'] {
  if (!input) return null;
  const locales = (input.locales ?? []).map((l) => (typeof l === 'string' ? l : l?.code));
  if (locales.length === 0) fail('localization.locales', 'needs at least one locale');
  locales.forEach((code, i) => {
    if (typeof code !== 'string' || !LOCALE.test(code) || code === 'all') fail(`localization.locales[${i}]`, `"${code}" is not a valid locale code`);
  });
  const defaultLocale = input.defaultLocale ?? locales[0];
  if (!locales.includes(defaultLocale)) fail('localization.defaultLocale', `"${defaultLocale}" is not one of the locales`);
  return { locales, defaultLocale, fallback: input.fallback !== false };
}

function mergeBuiltIn(builtIn: CollectionConfig, project: CollectionConfig, key: string, fail: Fail): CollectionConfig {
  const builtInNames = new Set(builtIn.fields.map((f) => f.name));
  (project.fields ?? []).forEach((f, i) => {
    if (builtInNames.has(f?.name)) fail(`${key}.fields[${i}].name`, `"${f.name}" is a built-in field of ${builtIn.slug}`);
  });
  const hooks: Hooks = { ...builtIn.hooks };
  for (const name of HOOK_NAMES) {
    const extra = project.hooks?.[name];
    if (extra) hooks[name] = [...(builtIn.hooks?.[name] ?? []), ...extra];
  }
  return {
    ...builtIn,
    ...project,
    fields: [...builtIn.fields, ...(project.fields ?? [])],
    access: { ...builtIn.access, ...project.access },
    hooks,
    admin: { ...builtIn.admin, ...project.admin },
  };
}

const requireUser: AccessRule = ({ user }) => Boolean(user);

function sanitizeHooks(hooks: Hooks | undefined, key: string, fail: Fail): Record<HookName, Hook[]> {
  const out = {} as Record<HookName, Hook[]>;
  for (const name of Object.keys(hooks ?? {})) {
    if (!HOOK_NAMES.includes(name as HookName)) fail(`${key}.hooks.${name}`, `unknown hook (expected one of ${HOOK_NAMES.join(', ')})`);
  }
  for (const name of HOOK_NAMES) {
    const list = hooks?.[name] ?? [];
    if (!Array.isArray(list) || !list.every((h) => typeof h === 'function')) fail(`${key}.hooks.${name}`, 'must be a list of functions');
    out[name] = list;
  }
  return out;
}

function sanitizeAccess(access: Record<string, unknown> | undefined, names: string[], key: string, fail: Fail) {
  const out: Record<string, AccessRule> = {};
  for (const [name, rule] of Object.entries(access ?? {})) {
    if (rule !== undefined && typeof rule !== 'function' && typeof rule !== 'boolean') fail(`${key}.access.${name}`, 'must be a function');
    if (rule !== undefined) out[name] = typeof rule === 'boolean' ? () => rule : (rule as AccessRule);
  }
  for (const name of names) out[name] ??= requireUser;
  return out;
}

function sanitizeCollection(
  c: CollectionConfig, key: string, builtIn: string | undefined,
  localization: SanitizedConfig['localization'], fail: Fail,
): SanitizedCollection {
  const drafts = Boolean(c.drafts);
  if (!Array.isArray(c.fields)) fail(`${key}.fields`, 'must be a list');
  const reserved = new Set(RESERVED_FIELD_NAMES);
  if (drafts) reserved.add('status');
  const fields = sanitizeFields(c.fields, `${key}.fields`, '', false, reserved, localization, fail);
  const fieldsByName = new Map(fields.map((f) => [f.name, f]));
  const indexes = (c.indexes ?? []).map((index, i) => {
    if (!index || !Array.isArray(index.fields) || index.fields.length === 0) fail(`${key}.indexes[${i}].fields`, 'must be a non-empty list of field names');
    for (const name of index.fields) {
      const bare = name.replace(/^-/, '');
      const field = fieldsByName.get(bare);
      const systemColumn = ['id', 'createdAt', 'updatedAt'].includes(bare) || (drafts && bare === 'status');
      if (!systemColumn && (!field || !isColumnField(field))) fail(`${key}.indexes[${i}].fields`, `"${bare}" is not a top-level field stored in its own column`);
    }
    return { fields: index.fields.map((n) => n.replace(/^-/, '')), unique: Boolean(index.unique) };
  });
  const useAsTitle = c.admin?.useAsTitle;
  if (useAsTitle && useAsTitle !== 'id' && !fieldsByName.has(useAsTitle)) fail(`${key}.admin.useAsTitle`, `unknown field "${useAsTitle}"`);
  return {
    ...c,
    slug: c.slug,
    kind: 'collection',
    table: c.slug,
    builtIn: builtIn as SanitizedCollection['builtIn'],
    drafts,
    maxVersions: c.maxVersions ?? 100,
    fields,
    fieldsByName,
    indexes,
    access: sanitizeAccess(c.access, ['read', 'create', 'update', 'delete'], key, fail),
    hooks: sanitizeHooks(c.hooks, key, fail),
    cache: sanitizeEntityCache(c.cache, key, fail),
  };
}

function sanitizeGlobal(g: GlobalConfig, key: string, localization: SanitizedConfig['localization'], fail: Fail): SanitizedGlobal {
  const drafts = Boolean(g.drafts);
  if (!Array.isArray(g.fields)) fail(`${key}.fields`, 'must be a list');
  const reserved = new Set(RESERVED_FIELD_NAMES);
  if (drafts) reserved.add('status');
  const fields = sanitizeFields(g.fields, `${key}.fields`, '', false, reserved, localization, fail);
  return {
    ...g,
    kind: 'global',
    table: `_global_${g.slug}`,
    drafts,
    maxVersions: g.maxVersions ?? 100,
    fields,
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
  if (typeof control !== 'string' || /[\r\n]/.test(control)) fail(`${key}.cache.control`, 'must be a Cache-Control header value');
  const dependsOn = cache.dependsOn ?? [];
  if (!Array.isArray(dependsOn) || !dependsOn.every((d) => typeof d === 'string')) fail(`${key}.cache.dependsOn`, 'must be a list of collection or global slugs');
  return { enabled: true, control, dependsOn };
}

/** Fields that get a real column of their own (and so can be indexed, sorted and filtered fast). */
export function isColumnField(field: SanitizedField): boolean {
  if (field.localized || field.hasMany) return false;
  return !['json', 'array', 'group'].includes(field.type);
}

function sanitizeFields(
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

export function walkFields(fields: SanitizedField[], visit: (field: SanitizedField) => void): void {
  for (const field of fields) {
    visit(field);
    if (field.fields) walkFields(field.fields, visit);
  }
}

function sanitizeWebhooks(
  input: UserConfig['webhooks'], collections: Map<string, SanitizedCollection>, globals: Map<string, SanitizedGlobal>, fail: Fail,
) {
  const events = ['create', 'update', 'delete', 'publish', 'unpublish', 'draft'];
  if (input === undefined) return [];
  if (!Array.isArray(input)) fail('webhooks', 'must be a list');
  return input.map((w, i) => {
    const at = `webhooks[${i}]`;
    if (!w || typeof w.url !== 'string') fail(`${at}.url`, 'is required');
    try {
      const url = new URL(w.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    } catch {
      fail(`${at}.url`, `"${w.url}" is not an http(s) URL`);
    }
    for (const e of w.events ?? []) if (!events.includes(e)) fail(`${at}.events`, `unknown event "${e}" (expected ${events.join(', ')})`);
    for (const c of w.collections ?? []) if (!collections.has(c)) fail(`${at}.collections`, `unknown collection "${c}"`);
    for (const g of w.globals ?? []) if (!globals.has(g)) fail(`${at}.globals`, `unknown global "${g}"`);
    return { ...w };
  });
}

/** CONTRACT §9: a `postgres://` or `postgresql://` URL selects PostgreSQL; anything else is a SQLite path. */
function databaseSettings(database: string, pool: unknown, resolve: (p: string) => string, fail: (key: string, message: string) => never) {
  if (!isPostgresUrl(database)) {
    const file = resolve(database);
    return { databaseEngine: 'sqlite' as const, databasePath: file, databaseLabel: file, databasePool: 1 };
  }
  const databasePool = pool === undefined ? DEFAULT_POOL_SIZE : Number(pool);
  if (!Number.isInteger(databasePool) || databasePool < 1) fail('databasePool', 'must be a positive whole number');
  return { databaseEngine: 'postgres' as const, databasePath: database, databaseLabel: describeUrl(database), databasePool };
}

/**
 * SQL of each engine in its own folder beside the config. A SQLite install made before there were two engines
 * keeps its flat `migrations/` (files already there), so its history is read and continued where it is.
 */
function migrationsDirFor(engine: 'sqlite' | 'postgres', base: string): string {
  if (engine === 'postgres') return path.join(base, 'postgres');
  const flat = fs.existsSync(base) && fs.readdirSync(base).some((f) => /^\d{4}_[\w-]+\.sql$/.test(f));
  return flat ? base : path.join(base, 'sqlite');
}
