/**
 * Turns a project's config into the complete, checked config the rest of the code reads:
 * every default filled, every reference checked, once, at start.
 */
import { withUploadFields, type UploadDefaults } from './upload-collections.ts';
import path from 'node:path';
import { sanitizeRealtime } from './realtime-options.ts';
import { ConfigError } from '../errors.ts';
import { sanitizeTrustProxy } from './trust-proxy.ts';
import { databaseSettings, migrationsDirFor } from './database-settings.ts';
import { normalizeOrigin } from './origin.ts';
import { FIELD_NAME, type Fail } from './sanitize-fields.ts';
import { mergeBuiltIn, sanitizeCollection, sanitizeGlobal } from './sanitize-entities.ts';
import { sanitizeBackups } from './backups.ts';
import { sanitizeReplica } from './replica.ts';
import { sanitizeEmail } from './email.ts';
import { checkFieldReferences } from './field-references.ts';
import {
  apiKeysCollection,
  foldersCollection,
  mediaCollection,
  usersCollection,
  FOLDERS_SLUG,
} from './builtin-collections.ts';
import { withFolders } from './folders.ts';
import type { CollectionConfig, SanitizedCollection, SanitizedConfig, SanitizedGlobal, UserConfig } from './types.ts';

const SLUG = /^[a-z][a-z0-9_-]{0,62}$/;
const LOCALE = /^[A-Za-z]{2,8}([_-][A-Za-z0-9]{1,8})*$/;
const RESERVED_COLLECTION_SLUGS = new Set([
  'globals',
  'jobs',
  'webhook-deliveries',
  'backups',
  '_admin',
  'preview',
  'realtime',
  'search',
  'graphql',
  'audit-log',
  'mcp',
]);

/**
 * `builtInDefaults`: no config file was found. The default schema (users, media) is then the binary's own, not
 * a project's: its migration files go to the data folder rather than beside the binary (docs/config.md).
 */
type Options = {
  configPath: string | null;
  rootDir: string;
  dev?: boolean;
  database?: string;
  builtInDefaults?: boolean;
};

/** What a section's sanitizer is given: the project's config, how to resolve a path and fail, and what is done. */
type SectionArgs = {
  input: UserConfig;
  options: Options;
  resolve: (p: string) => string;
  fail: Fail;
  /** The sanitized config so far: every section above this one in SECTIONS is filled. */
  done: SanitizedConfig;
};

/**
 * One sanitizer per section of the config, run in this order (a section reads only those above it); each
 * answers its part of the sanitized config.
 */
const SECTIONS = {
  paths: ({ options }) => ({ configPath: options.configPath, rootDir: options.rootDir, dev: Boolean(options.dev) }),
  auth: ({ input, fail }) => ({ auth: sanitizeAuth(input.auth ?? {}, fail) }),
  localization: ({ input, fail }) => ({ localization: sanitizeLocalization(input.localization, fail) }),
  routes: ({ input, fail }) => ({
    routes: {
      api: sanitizeRoute(input.routes?.api ?? '/api/cms', 'routes.api', fail),
      admin: sanitizeRoute(input.routes?.admin ?? '/admin', 'routes.admin', fail),
    },
  }),
  database: ({ input, options, resolve, fail }) => {
    const database = databaseSettings(
      { commandTarget: options.database, configured: input.database, pool: input.databasePool },
      resolve,
      fail,
    );
    // PostgreSQL keeps nothing in it but what one box needs for itself (sharp's native files, staged uploads).
    const dataDir = database.databaseEngine === 'sqlite' ? path.dirname(database.databasePath) : resolve('data');
    const migrationsDir = migrationsDirFor(
      database.databaseEngine,
      options.builtInDefaults ? path.join(dataDir, 'migrations') : resolve('migrations'),
    );
    return { ...database, dataDir, migrationsDir };
  },
  collectionSlugs: ({ input, fail }) => {
    checkCollectionSlugs(input.collections, fail);
    return {};
  },
  upload: ({ input, resolve, fail }) => ({ upload: sanitizeUpload(input.upload ?? {}, resolve, fail) }),
  collections: ({ input, done, fail }) => sanitizeCollections(input.collections ?? [], done, fail),
  globals: ({ input, done, fail }) => sanitizeGlobals(input.globals, done.localization, fail),
  references: ({ done, fail }) => {
    checkReferences(done, fail);
    return {};
  },
  webhooks: ({ input, done, fail }) => ({
    webhooks: sanitizeWebhooks(input.webhooks, done.collectionsBySlug, done.globalsBySlug, fail),
  }),
  cors: ({ input, fail }) => {
    const cors = input.cors ?? [];
    if (cors !== '*' && !(Array.isArray(cors) && cors.every((o) => typeof o === 'string')))
      fail('cors', "must be a list of origins or '*'");
    return { cors: cors === '*' ? '*' : cors.map(normalizeOrigin) };
  },
  server: ({ input, done, resolve, fail }) => ({
    serverURL: input.serverURL ? String(input.serverURL).replace(/\/+$/, '') : null,
    secret: input.secret ?? null,
    publicDir: publicDirOf(input.publicDir, done.routes, resolve, fail),
    trustProxy: sanitizeTrustProxy(input.trustProxy, fail),
  }),
  email: ({ input, fail }) => ({ email: sanitizeEmail(input.email, process.env, fail) }),
  backups: ({ input, done, resolve, fail }) => ({
    backups: sanitizeBackups(input.backups, { dir: done.upload.dir, storage: done.upload.storage }, resolve, fail),
    replica: sanitizeReplica(input.replica, resolve, fail),
  }),
  jobs: ({ input }) => ({ jobs: { secret: process.env.CMS_CRON_SECRET || input.jobs?.secret || null } }),
  cache: ({ input, fail }) => ({
    cache:
      input.cache === false
        ? null
        : { maxSize: positiveNumber(input.cache?.maxSize ?? 32 * 1024 * 1024, 'cache.maxSize', fail) },
  }),
  graphQL: ({ input, fail }) => ({ graphQL: sanitizeGraphQL(input.graphQL, fail) }),
  maxPopulatedDocuments: ({ input, fail }) => ({
    maxPopulatedDocuments: positiveNumber(input.maxPopulatedDocuments ?? 10_000, 'maxPopulatedDocuments', fail),
  }),
  realtime: ({ input, fail }) => ({ realtime: sanitizeRealtime(input.realtime, fail) }),
  audit: ({ input, fail }) => ({
    audit:
      input.audit === false ? null : { keepDays: positiveNumber(input.audit?.keepDays ?? 365, 'audit.keepDays', fail) },
  }),
  mcp: ({ input, fail }) => ({
    mcp:
      input.mcp === false
        ? null
        : { requestsPerMinute: positiveNumber(input.mcp?.requestsPerMinute ?? 120, 'mcp.requestsPerMinute', fail) },
  }),
  releases: ({ input, done, fail }) => {
    if (input.releases === true && done.collectionsBySlug.has('releases'))
      fail('collections', 'the slug "releases" is reserved while releases are on');
    return { releases: input.releases === true };
  },
} satisfies Record<string, (args: SectionArgs) => Partial<SanitizedConfig>>;

/** Each key of the sanitized config that no section answers: tsc names it here, so none can be forgotten. */
type Answered<T> = T extends unknown ? keyof T : never;
type Unanswered = Exclude<keyof SanitizedConfig, Answered<ReturnType<(typeof SECTIONS)[keyof typeof SECTIONS]>>>;
const everyKeyAnswered: Record<Unanswered, never> = {};
void everyKeyAnswered;

export function sanitizeConfig(input: UserConfig, options: Options): SanitizedConfig {
  const where = options.configPath ?? 'built-in defaults';
  const fail = (key: string, message: string): never => {
    throw new ConfigError(`Config error in ${where}: ${key}: ${message}`);
  };
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    fail('(root)', 'the config must be an object (default export)');
  const resolve = (p: string) => (path.isAbsolute(p) ? p : path.join(options.rootDir, p));
  const done = {} as SanitizedConfig;
  for (const sanitize of Object.values(SECTIONS))
    Object.assign(done, sanitize({ input, options, resolve, fail, done }));
  return done;
}

/** The list of collections and their slugs, checked before anything reads them. */
function checkCollectionSlugs(declared: UserConfig['collections'], fail: Fail): void {
  if (declared === undefined) return;
  if (!Array.isArray(declared)) fail('collections', 'must be a list');
  const seen = new Set<string>();
  declared.forEach((c, i) => {
    if (!c || typeof c !== 'object') fail(`collections[${i}]`, 'must be an object');
    if (typeof c.slug !== 'string' || !SLUG.test(c.slug))
      fail(`collections[${i}].slug`, `"${c.slug}" is not a valid slug (lowercase letters, digits, - and _)`);
    if (RESERVED_COLLECTION_SLUGS.has(c.slug)) fail(`collections[${i}].slug`, `"${c.slug}" is reserved`);
    if (seen.has(c.slug)) fail(`collections[${i}].slug`, `duplicate collection slug "${c.slug}"`);
    seen.add(c.slug);
  });
}

/** Where uploads go, and the defaults an upload collection takes unless it says otherwise. */
function sanitizeUpload(
  upload: NonNullable<UserConfig['upload']>,
  resolve: (p: string) => string,
  fail: Fail,
): SanitizedConfig['upload'] {
  return {
    maxFileSize: positiveNumber(upload.maxFileSize ?? 10_000_000, 'upload.maxFileSize', fail),
    mimeTypes: upload.mimeTypes ?? ['image/*', 'application/pdf'],
    imageSizes: (upload.imageSizes ?? []).map((s, i) => {
      if (!s || typeof s.name !== 'string' || !FIELD_NAME.test(s.name))
        fail(`upload.imageSizes[${i}].name`, 'must be a simple name');
      positiveNumber(s.width, `upload.imageSizes[${i}].width`, fail);
      if (s.height !== undefined) positiveNumber(s.height, `upload.imageSizes[${i}].height`, fail);
      return { name: s.name, width: s.width, height: s.height };
    }),
    dir: resolve(upload.dir ?? 'uploads/'),
    storage: upload.storage ?? null,
  };
}

/**
 * The built-in collections (users, media, API keys, and folders once some collection keeps its documents in
 * folders), merged with what the config declares of them, then the config's own.
 */
function sanitizeCollections(
  declared: CollectionConfig[],
  { auth, localization, upload }: SanitizedConfig,
  fail: Fail,
): Pick<SanitizedConfig, 'collections' | 'collectionsBySlug'> {
  const uploadDefaults: UploadDefaults = {
    maxFileSize: upload.maxFileSize,
    mimeTypes: upload.mimeTypes,
    imageSizes: upload.imageSizes,
  };
  // The folders collection exists once some collection keeps its documents in folders.
  const foldersOn = declared.some((c) => c.folders === true);
  const builtIns: CollectionConfig[] = [
    usersCollection(auth.roles),
    mediaCollection(),
    apiKeysCollection(),
    ...(foldersOn ? [foldersCollection()] : []),
  ];
  const builtInSlugs = builtIns.map((b) => b.slug);
  const builtInName = (slug: string) => (slug === FOLDERS_SLUG ? 'folders' : slug);
  const merged: { config: CollectionConfig; key: string; builtIn?: string }[] = builtIns.map((builtIn) => {
    const index = declared.findIndex((c) => c.slug === builtIn.slug);
    if (index === -1) return { config: builtIn, key: builtIn.slug, builtIn: builtInName(builtIn.slug) };
    return {
      config: mergeBuiltIn(builtIn, declared[index], `collections[${index}]`, fail),
      key: `collections[${index}]`,
      builtIn: builtInName(builtIn.slug),
    };
  });
  declared.forEach((c, i) => {
    if (!builtInSlugs.includes(c.slug))
      merged.push({ config: withUploadFields(c, `collections[${i}]`, fail), key: `collections[${i}]` });
  });
  const collections = merged.map(({ config, key, builtIn }) =>
    sanitizeCollection(withFolders(config, key, fail), key, builtIn, localization, uploadDefaults, fail),
  );
  return { collections, collectionsBySlug: new Map(collections.map((c) => [c.slug, c])) };
}

function sanitizeGlobals(
  input: UserConfig['globals'],
  localization: SanitizedConfig['localization'],
  fail: Fail,
): Pick<SanitizedConfig, 'globals' | 'globalsBySlug'> {
  const globalsInput = input ?? [];
  if (!Array.isArray(globalsInput)) fail('globals', 'must be a list');
  const globalSlugs = new Set<string>();
  const globals = globalsInput.map((g, i) => {
    if (!g || typeof g !== 'object') fail(`globals[${i}]`, 'must be an object');
    if (typeof g.slug !== 'string' || !SLUG.test(g.slug)) fail(`globals[${i}].slug`, `"${g.slug}" is not a valid slug`);
    if (globalSlugs.has(g.slug)) fail(`globals[${i}].slug`, `duplicate global slug "${g.slug}"`);
    globalSlugs.add(g.slug);
    return sanitizeGlobal(g, `globals[${i}]`, localization, fail);
  });
  return { globals, globalsBySlug: new Map(globals.map((g) => [g.slug, g])) };
}

/** References are checked once every collection and global is known. */
function checkReferences(
  { collections, globals, collectionsBySlug, globalsBySlug }: SanitizedConfig,
  fail: Fail,
): void {
  for (const entity of [...collections, ...globals]) {
    const key = entity.kind === 'collection' ? `collections(${entity.slug})` : `globals(${entity.slug})`;
    checkFieldReferences(entity, key, collectionsBySlug, fail);
    for (const slug of entity.cache.dependsOn) {
      if (!collectionsBySlug.has(slug) && !globalsBySlug.has(slug))
        fail(`${key}.cache.dependsOn`, `unknown collection or global "${slug}"`);
    }
  }
}

function sanitizeGraphQL(input: UserConfig['graphQL'], fail: Fail): SanitizedConfig['graphQL'] {
  if (input?.disable) return null;
  return {
    maxComplexity: positiveNumber(input?.maxComplexity ?? 1000, 'graphQL.maxComplexity', fail),
    maxResultSize: positiveNumber(input?.maxResultSize ?? 1_000_000, 'graphQL.maxResultSize', fail),
    maxDepth: positiveNumber(input?.maxDepth ?? 10, 'graphQL.maxDepth', fail),
    maxAliases: positiveNumber(input?.maxAliases ?? 30, 'graphQL.maxAliases', fail),
    maxBatch: positiveNumber(input?.maxBatch ?? 10, 'graphQL.maxBatch', fail),
    maxQueryBytes: positiveNumber(input?.maxQueryBytes ?? 65_536, 'graphQL.maxQueryBytes', fail),
    maxTokens: positiveNumber(input?.maxTokens ?? 10_000, 'graphQL.maxTokens', fail),
    maxSelections: positiveNumber(input?.maxSelections ?? 200, 'graphQL.maxSelections', fail),
    maxFields: positiveNumber(input?.maxFields ?? 2000, 'graphQL.maxFields', fail),
  };
}

function sanitizeRoute(route: string, key: string, fail: Fail): string {
  if (typeof route !== 'string' || !route.startsWith('/')) fail(key, 'must start with /');
  return route === '/' ? '' : route.replace(/\/+$/, '');
}

function publicDirOf(
  value: unknown,
  routes: { api: string; admin: string },
  resolve: (p: string) => string,
  fail: Fail,
): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || !value.trim()) fail('publicDir', 'must be a folder path');
  // The folder takes the root: the API and the admin need paths of their own below it.
  if (!routes.api || !routes.admin) fail('publicDir', 'needs routes.api and routes.admin below the root (not "/")');
  return resolve(value as string);
}

function positiveNumber(value: unknown, key: string, fail: Fail): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) fail(key, 'must be a positive number');
  return value as number;
}

function sanitizeAuth(auth: NonNullable<UserConfig['auth']>, fail: Fail): SanitizedConfig['auth'] {
  const roles = auth.roles ?? ['admin', 'editor'];
  if (!Array.isArray(roles) || !roles.every((r) => typeof r === 'string' && r.length > 0))
    fail('auth.roles', 'must be a list of role names');
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
  if (!Array.isArray(input)) fail('auth.requireTwoFactor', "must be a list of roles, e.g. ['admin']");
  for (const role of input)
    if (!roles.includes(role)) fail('auth.requireTwoFactor', `"${role}" is not one of auth.roles`);
  return input;
}

function sanitizeLocalization(input: UserConfig['localization'], fail: Fail): SanitizedConfig['localization'] {
  if (!input) return null;
  const locales = (input.locales ?? []).map((l) => (typeof l === 'string' ? l : l?.code));
  if (locales.length === 0) fail('localization.locales', 'needs at least one locale');
  locales.forEach((code, i) => {
    if (typeof code !== 'string' || !LOCALE.test(code) || code === 'all')
      fail(`localization.locales[${i}]`, `"${code}" is not a valid locale code`);
  });
  const defaultLocale = input.defaultLocale ?? locales[0];
  if (!locales.includes(defaultLocale))
    fail('localization.defaultLocale', `"${defaultLocale}" is not one of the locales`);
  return { locales, defaultLocale, fallback: input.fallback !== false };
}

function sanitizeWebhooks(
  input: UserConfig['webhooks'],
  collections: Map<string, SanitizedCollection>,
  globals: Map<string, SanitizedGlobal>,
  fail: Fail,
) {
  const events = ['create', 'update', 'delete', 'publish', 'unpublish', 'draft', 'release'];
  if (input === undefined) return [];
  if (!Array.isArray(input)) fail('webhooks', 'must be a list');
  return input.map((w, i) => {
    const at = `webhooks[${i}]`;
    if (!w || typeof w.url !== 'string') fail(`${at}.url`, 'is required');
    try {
      const url = new URL(w.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    } catch {
      // Not echoed: a target URL may hold its receiver's secret, and this message is printed and logged.
      fail(`${at}.url`, 'is not an http(s) URL');
    }
    for (const e of w.events ?? [])
      if (!events.includes(e)) fail(`${at}.events`, `unknown event "${e}" (expected ${events.join(', ')})`);
    for (const c of w.collections ?? [])
      if (!collections.has(c)) fail(`${at}.collections`, `unknown collection "${c}"`);
    for (const g of w.globals ?? []) if (!globals.has(g)) fail(`${at}.globals`, `unknown global "${g}"`);
    return { ...w };
  });
}
