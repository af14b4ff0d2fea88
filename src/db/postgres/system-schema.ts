/**
 * The system tables on PostgreSQL: the twin of ../system-schema.ts (same tables, columns and indexes), so
 * both engines answer the same. `bun scripts/generate-embedded.ts --drizzle-generate` turns changes here
 * into SQL under migrations/system-postgres/, which ships embedded and is applied by ./migrate.ts.
 * Ids are identity columns (positive integers per table; "by default" so a copied project keeps its ids).
 * Epoch-ms times are bigint, read back as JS numbers (`mode: 'number'`; Bun.SQL returns int8 as a string).
 */
import { bigint, index, integer, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';

const epochMs = (name: string) => bigint(name, { mode: 'number' });
const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity();

export const sessions = pgTable(
  '_cms_sessions',
  {
    /** sha256 of the token; the token itself is never stored. */
    tokenHash: text('tokenHash').primaryKey(),
    userId: integer('userId').notNull(),
    csrfToken: text('csrfToken').notNull(),
    expiresAt: epochMs('expiresAt').notNull(),
    createdAt: epochMs('createdAt').notNull(),
    id: text('id'),
    lastUsedAt: epochMs('lastUsedAt'),
    userAgent: text('userAgent'),
    ip: text('ip'),
  },
  (t) => [index('_cms_sessions_user_idx').on(t.userId), uniqueIndex('_cms_sessions_id_idx').on(t.id)],
);

export const resetTokens = pgTable(
  '_cms_reset_tokens',
  {
    tokenHash: text('tokenHash').primaryKey(),
    userId: integer('userId').notNull(),
    kind: text('kind').notNull(),
    expiresAt: epochMs('expiresAt').notNull(),
    createdAt: epochMs('createdAt').notNull(),
  },
  (t) => [index('_cms_reset_tokens_user_idx').on(t.userId)],
);

export const totp = pgTable('_cms_totp', {
  userId: integer('userId').primaryKey(),
  secret: text('secret').notNull(),
  enabledAt: epochMs('enabledAt'),
  lastStep: epochMs('lastStep'),
});

export const recoveryCodes = pgTable(
  '_cms_recovery_codes',
  {
    id: id(),
    userId: integer('userId').notNull(),
    codeHash: text('codeHash').notNull(),
  },
  (t) => [index('_cms_recovery_codes_user_idx').on(t.userId, t.codeHash)],
);

export const loginAttempts = pgTable(
  '_cms_login_attempts',
  {
    id: id(),
    /** `email:<address>` or `ip:<address>`. */
    key: text('key').notNull(),
    at: epochMs('at').notNull(),
  },
  (t) => [index('_cms_login_attempts_key_idx').on(t.key, t.at)],
);

export const versions = pgTable(
  '_cms_versions',
  {
    id: id(),
    kind: text('kind').notNull(),
    slug: text('slug').notNull(),
    parent: integer('parent').notNull(),
    version: text('version').notNull(),
    status: text('status').notNull(),
    latest: integer('latest').notNull().default(0),
    pending: integer('pending').notNull().default(0),
    createdAt: text('createdAt').notNull(),
    updatedAt: text('updatedAt').notNull(),
    author: integer('author'),
    autosave: integer('autosave').notNull().default(0),
  },
  (t) => [index('_cms_versions_parent_idx').on(t.kind, t.slug, t.parent, t.id)],
);

export const locks = pgTable('_cms_locks', {
  target: text('target').primaryKey(),
  token: text('token').notNull(),
  user: integer('user'),
  lockedAt: epochMs('lockedAt').notNull(),
  heartbeatAt: epochMs('heartbeatAt').notNull(),
});

export const jobs = pgTable(
  '_cms_jobs',
  {
    id: id(),
    action: text('action').notNull(),
    kind: text('kind').notNull(),
    slug: text('slug').notNull(),
    parent: integer('parent').notNull(),
    at: epochMs('at').notNull(),
    state: text('state').notNull(),
    error: text('error'),
    lockedUntil: epochMs('lockedUntil'),
    createdAt: text('createdAt').notNull(),
    finishedAt: text('finishedAt'),
  },
  (t) => [index('_cms_jobs_due_idx').on(t.state, t.at), index('_cms_jobs_parent_idx').on(t.kind, t.slug, t.parent)],
);

export const schemaMigrations = pgTable(
  '_cms_schema_migrations',
  {
    name: text('name').primaryKey(),
    appliedAt: text('appliedAt').notNull(),
  },
  (t) => [uniqueIndex('_cms_schema_migrations_name_idx').on(t.name)],
);

/**
 * Values every instance must share (docs/postgres.md), e.g. the generated secret: on SQLite it is a file beside
 * the database, on PostgreSQL no instance's disk is shared, so it lives here.
 */
export const settings = pgTable('_cms_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * The last id handed out per config table: `cms_next_id(table)` (declared in the same migration) bumps it
 * inside the inserting statement's transaction, so a failed or rolled-back insert takes no id and ids run
 * 1, 2, 3… per collection as on SQLite (docs/postgres.md). Inserts into one table wait for each other's commit.
 */
export const ids = pgTable('_cms_ids', {
  table: text('table').primaryKey(),
  last: bigint('last', { mode: 'number' }).notNull(),
});

/** Change counters per content table, bumped by triggers (src/db/system-schema.ts, src/cache/change-counters.ts). */
export const changes = pgTable('_cms_changes', {
  name: text('name').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull().default(0),
});

/** The realtime change log (../system-schema.ts `changeLog`). */
export const changeLog = pgTable('_cms_events', {
  id: id(),
  at: epochMs('at').notNull(),
  type: text('type').notNull(),
  kind: text('kind').notNull(),
  slug: text('slug').notNull(),
  docId: integer('docId').notNull(),
  draft: integer('draft').notNull().default(0),
  deleted: text('deleted'),
});

/** The audit log (../system-schema.ts `auditLog`). */
export const auditLog = pgTable(
  '_cms_audit_log',
  {
    id: id(),
    at: text('at').notNull(),
    action: text('action').notNull(),
    collection: text('collection'),
    global: text('global'),
    document: integer('document'),
    user: integer('user'),
    apiKey: integer('apiKey'),
    via: text('via').notNull(),
    ip: text('ip'),
    changes: text('changes').notNull(),
  },
  (t) => [index('_cms_audit_log_document_idx').on(t.collection, t.document)],
);

/** What `cms import <source>` wrote (../system-schema.ts `importMap`). */
export const importMap = pgTable(
  '_cms_import_map',
  {
    source: text('source').notNull(),
    sourceId: text('sourceId').notNull(),
    collection: text('collection').notNull(),
    docId: text('docId').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [primaryKey({ columns: [t.source, t.sourceId] })],
);

/** Releases (../system-schema.ts `releases`). */
export const releases = pgTable(
  '_cms_releases',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description'),
    status: text('status').notNull(),
    publishAt: epochMs('publishAt'),
    publishedAt: text('publishedAt'),
    publishedBy: integer('publishedBy'),
    errors: text('errors'),
    revertOf: integer('revertOf'),
    createdBy: integer('createdBy'),
    createdAt: text('createdAt').notNull(),
    updatedAt: text('updatedAt').notNull(),
    lockedUntil: epochMs('lockedUntil'),
  },
  (t) => [index('_cms_releases_due_idx').on(t.status, t.publishAt)],
);

/** The items of releases (../system-schema.ts `releaseItems`). */
export const releaseItems = pgTable(
  '_cms_release_items',
  {
    id: id(),
    release: integer('release').notNull(),
    kind: text('kind').notNull(),
    slug: text('slug').notNull(),
    parent: integer('parent').notNull(),
    action: text('action').notNull(),
    version: integer('version'),
    previousVersion: integer('previousVersion'),
    wasPublished: integer('wasPublished').notNull().default(0),
    createdAt: text('createdAt').notNull(),
  },
  (t) => [
    uniqueIndex('_cms_release_items_document_idx').on(t.release, t.kind, t.slug, t.parent),
    index('_cms_release_items_parent_idx').on(t.kind, t.slug, t.parent),
  ],
);
