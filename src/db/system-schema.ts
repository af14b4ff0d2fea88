/**
 * System tables, declared once with drizzle; `bun run db:generate` turns changes here into SQL files
 * under migrations/system/, which ship embedded in the binary and are applied at start.
 * Times the job loop compares are epoch milliseconds (integers), read from the injectable clock.
 */
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';

export const sessions = sqliteTable(
  '_cms_sessions',
  {
    /** sha256 of the token; the token itself is never stored. */
    tokenHash: text('tokenHash').primaryKey(),
    userId: integer('userId').notNull(),
    csrfToken: text('csrfToken').notNull(),
    expiresAt: integer('expiresAt').notNull(),
    createdAt: integer('createdAt').notNull(),
    /** The session's public name in the sessions list (random; the token hash is never shown). */
    id: text('id'),
    /** Written at most once a minute (src/auth/sessions.ts), so a read is not a write. */
    lastUsedAt: integer('lastUsedAt'),
    userAgent: text('userAgent'),
    ip: text('ip'),
  },
  (t) => [index('_cms_sessions_user_idx').on(t.userId), uniqueIndex('_cms_sessions_id_idx').on(t.id)],
);

/** Password-reset and invitation links (src/auth/reset-tokens.ts): the newest one per user, sha256 only. */
export const resetTokens = sqliteTable(
  '_cms_reset_tokens',
  {
    tokenHash: text('tokenHash').primaryKey(),
    userId: integer('userId').notNull(),
    /** `reset` or `invite`. */
    kind: text('kind').notNull(),
    expiresAt: integer('expiresAt').notNull(),
    createdAt: integer('createdAt').notNull(),
  },
  (t) => [index('_cms_reset_tokens_user_idx').on(t.userId)],
);

/** Two-factor sign-in (src/auth/totp-store.ts): one row per user, enabled once `enabledAt` is set. */
export const totp = sqliteTable('_cms_totp', {
  userId: integer('userId').primaryKey(),
  /** The base32 secret, encrypted with the instance secret (src/auth/secret-box.ts). */
  secret: text('secret').notNull(),
  enabledAt: integer('enabledAt'),
  /** The last 30-second step whose code was accepted: a code of that step or earlier is never taken again. */
  lastStep: integer('lastStep'),
});

export const recoveryCodes = sqliteTable(
  '_cms_recovery_codes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    userId: integer('userId').notNull(),
    codeHash: text('codeHash').notNull(),
  },
  (t) => [index('_cms_recovery_codes_user_idx').on(t.userId, t.codeHash)],
);

export const loginAttempts = sqliteTable(
  '_cms_login_attempts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** A lock key (src/auth/login-lock.ts): `pair:<ip>/<email>` or `email:<address>`. */
    key: text('key').notNull(),
    at: integer('at').notNull(),
  },
  (t) => [index('_cms_login_attempts_key_idx').on(t.key, t.at)],
);

export const versions = sqliteTable(
  '_cms_versions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** Collection or global slug, with `kind` telling which. */
    kind: text('kind').notNull(),
    slug: text('slug').notNull(),
    /** Document id; 0 for a global. */
    parent: integer('parent').notNull(),
    version: text('version').notNull(),
    status: text('status').notNull(),
    latest: integer('latest').notNull().default(0),
    /** 1 while this version is a draft saved over the live row and not yet published or discarded. */
    pending: integer('pending').notNull().default(0),
    createdAt: text('createdAt').notNull(),
    updatedAt: text('updatedAt').notNull(),
    /** Id of the user who saved this version; null for the system (jobs, Local API without a user). No foreign key: a deleted user leaves history intact. */
    author: integer('author'),
    /** 1 for a draft saved by autosave: the next autosave updates it instead of adding a version. */
    autosave: integer('autosave').notNull().default(0),
  },
  (t) => [index('_cms_versions_parent_idx').on(t.kind, t.slug, t.parent, t.id)],
);

/**
 * Who is editing a document or global in the admin (docs/content-model.md, "Document locks"). One row per
 * target (`collection:<slug>:<id>` or `global:<slug>`); it lapses when `heartbeatAt` (epoch ms) is older
 * than the lock's lifetime. `token` is the holder's editing session, sent back with its saves.
 */
export const locks = sqliteTable('_cms_locks', {
  target: text('target').primaryKey(),
  token: text('token').notNull(),
  user: integer('user'),
  lockedAt: integer('lockedAt').notNull(),
  heartbeatAt: integer('heartbeatAt').notNull(),
});

export const jobs = sqliteTable(
  '_cms_jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    action: text('action').notNull(),
    kind: text('kind').notNull(),
    slug: text('slug').notNull(),
    parent: integer('parent').notNull(),
    /** Due time, epoch ms. */
    at: integer('at').notNull(),
    state: text('state').notNull(),
    error: text('error'),
    /** Lease: a runner that claimed the job owns it until then. */
    lockedUntil: integer('lockedUntil'),
    createdAt: text('createdAt').notNull(),
    finishedAt: text('finishedAt'),
  },
  (t) => [index('_cms_jobs_due_idx').on(t.state, t.at), index('_cms_jobs_parent_idx').on(t.kind, t.slug, t.parent)],
);

/** Applied config migrations (collection tables); system migrations are tracked by drizzle itself. */
export const schemaMigrations = sqliteTable(
  '_cms_schema_migrations',
  {
    name: text('name').primaryKey(),
    appliedAt: text('appliedAt').notNull(),
  },
  (t) => [uniqueIndex('_cms_schema_migrations_name_idx').on(t.name)],
);

/**
 * Small values the system keeps across restarts and shares between processes (e.g. when upload leftovers
 * were last swept). PostgreSQL's twin also holds the generated secret (src/db/postgres/system-schema.ts).
 */
export const settings = sqliteTable('_cms_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

/**
 * How many times each table that answers depend on has changed (src/cache/change-counters.ts): a config
 * table's name (a collection's slug, `_global_<slug>`), `_cms_sessions` or `_cms_totp` → a counter that
 * triggers bump on every insert, update and delete (a version row counts for its document's table). The
 * response cache and the kept session lookups compare these.
 */
export const changes = sqliteTable('_cms_changes', {
  name: text('name').primaryKey(),
  version: integer('version').notNull().default(0),
});

/**
 * The change log that realtime subscribers follow (src/realtime/, docs/realtime.md): one row per announced
 * change, written in the change's own transaction, so every writer (this process, the job loop, a CLI or
 * Local API process, another instance) reaches every subscriber. Ids are in commit order; the job loop
 * removes rows older than the replay window, walking the primary key from its start, so `at` has no index
 * (each would be one more page to write per commit). `draft` is 1 for a save that changed only the pending
 * draft.
 */
export const changeLog = sqliteTable('_cms_events', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  /** Epoch ms. */
  at: integer('at').notNull(),
  type: text('type').notNull(),
  /** `collection` or `global`. */
  kind: text('kind').notNull(),
  slug: text('slug').notNull(),
  /** Document id; 0 for a global. */
  docId: integer('docId').notNull(),
  draft: integer('draft').notNull().default(0),
  /** The deleted document's stored values (delete only): who could read it is decided from them. */
  deleted: text('deleted'),
});

/**
 * The audit log (src/audit, docs/audit-log.md): one row per write, written in the write's own transaction.
 * `at` is an ISO time (sorted and filtered as text, like `createdAt` of documents); `changes` is JSON text.
 * Ids follow time, so newest-first and retention go by the primary key; the one index serves a document's
 * own entries (each row is one more b-tree page per index to write, on every write).
 */
export const auditLog = sqliteTable(
  '_cms_audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
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

/**
 * What `cms import <source>` wrote (src/moving-in/, docs/moving-in.md): one row per source document or media file,
 * so a second run updates the same document instead of creating another. `hash` is of the source item as
 * read, so an item that did not change is reported unchanged and left alone; `docId` is text because a
 * source's ids are not always numbers.
 */
export const importMap = sqliteTable(
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

/**
 * Releases (src/releases, docs/releases.md): changes to many documents that go live together. `publishAt`
 * is epoch ms (the job loop compares it); `lockedUntil` is a runner's lease on a due release; `errors` is
 * the JSON list of a failed scheduled publish.
 */
export const releases = sqliteTable(
  '_cms_releases',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    title: text('title').notNull(),
    description: text('description'),
    status: text('status').notNull(),
    publishAt: integer('publishAt'),
    publishedAt: text('publishedAt'),
    publishedBy: integer('publishedBy'),
    errors: text('errors'),
    revertOf: integer('revertOf'),
    createdBy: integer('createdBy'),
    createdAt: text('createdAt').notNull(),
    updatedAt: text('updatedAt').notNull(),
    lockedUntil: integer('lockedUntil'),
  },
  (t) => [index('_cms_releases_due_idx').on(t.status, t.publishAt)],
);

/**
 * One document or global of a release: `version` is the pinned version (`_cms_versions.id`);
 * `previousVersion` and `wasPublished` record, at publish time, what was live before (for a revert).
 */
export const releaseItems = sqliteTable(
  '_cms_release_items',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
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
