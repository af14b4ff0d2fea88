/** The shapes of a project's config (as written) and of the sanitized config the rest of the code reads. */
import type { RealtimeConfig, RealtimeSettings } from './realtime-options.ts';
import type { SanitizedSearch, SearchConfig } from './search-options.ts';
import type { Clock } from '../clock.ts';
import type { CronSchedule } from './cron-schedule.ts';
import type { DraftsOption, VersionsOption } from './version-options.ts';
import type { SanitizedUpload } from './upload-collections.ts';

export type Where = { [key: string]: unknown; and?: Where[]; or?: Where[] };

export type AccessArgs = {
  user: User | null;
  id?: number | string;
  data?: Record<string, unknown>;
  doc?: Record<string, unknown>;
  req?: unknown;
};
export type AccessResult = boolean | Where;
export type AccessRule = (args: AccessArgs) => AccessResult | Promise<AccessResult>;
export type FieldAccessRule = (
  args: AccessArgs & { siblingData?: Record<string, unknown> },
) => boolean | Promise<boolean>;

export type User = { id: number; email: string; role: string; active?: boolean; [key: string]: unknown };

export type FieldType =
  | 'text'
  | 'textarea'
  | 'email'
  | 'number'
  | 'checkbox'
  | 'date'
  | 'select'
  | 'relationship'
  | 'upload'
  | 'json'
  | 'markdown'
  | 'array'
  | 'group'
  | 'blocks'
  | 'radio'
  | 'code'
  | 'point'
  | 'richText'
  | 'join'
  | LayoutFieldType;

/** Presentational fields: no name, no value of their own (docs/content-model.md). */
export type LayoutFieldType = 'tabs' | 'row' | 'collapsible';
export const LAYOUT_FIELD_TYPES: readonly LayoutFieldType[] = ['tabs', 'row', 'collapsible'];

export const FIELD_TYPES: readonly FieldType[] = [
  'text',
  'textarea',
  'email',
  'number',
  'checkbox',
  'date',
  'select',
  'relationship',
  'upload',
  'json',
  'markdown',
  'array',
  'group',
  'blocks',
  'radio',
  'code',
  'point',
  'richText',
  'join',
  ...LAYOUT_FIELD_TYPES,
];

/** One kind of row a `blocks` field holds. */
export interface Block {
  slug: string;
  fields: Field[];
  labels?: { singular?: LabelText; plural?: LabelText };
  interfaceName?: string;
  imageURL?: string;
  admin?: Record<string, unknown>;
}

/** A tab of a `tabs` field: with `name` its fields are stored as a group under it, without at the tabs field's level. */
export interface Tab {
  label?: LabelText;
  name?: string;
  description?: string;
  fields: Field[];
  admin?: Record<string, unknown>;
}

/** What `filterOptions` receives: the document's id (absent on create), who writes, the document as it will be, the field's siblings, and the collection a value points at. */
export type FilterOptionsArgs = {
  id?: number;
  user: User | null;
  data: Record<string, unknown>;
  siblingData: Record<string, unknown>;
  relationTo: string;
};
export type FilterOptions = Where | ((args: FilterOptionsArgs) => Where | boolean | Promise<Where | boolean>);

/** A field hook: gets the field's value and its surroundings, answers the value to keep. */
export type FieldHookArgs = {
  value: unknown;
  data: Record<string, unknown>;
  siblingData: Record<string, unknown>;
  originalDoc: Record<string, unknown> | null;
  operation: 'create' | 'update' | 'read';
  user: User | null;
  req: unknown;
  field: SanitizedField;
  path: string;
};
export type FieldHook = (args: FieldHookArgs) => unknown;
export type FieldHookName = 'beforeValidate' | 'beforeChange' | 'afterChange' | 'afterRead';
export const FIELD_HOOK_NAMES: readonly FieldHookName[] = [
  'beforeValidate',
  'beforeChange',
  'afterChange',
  'afterRead',
];

/** Editor hints; `condition` decides whether the field is shown (and validated) for the data being edited. */
export type FieldAdmin = {
  condition?: (data: Record<string, unknown>, siblingData: Record<string, unknown>) => boolean;
  description?: string;
  placeholder?: string;
  readOnly?: boolean;
  hidden?: boolean;
  position?: 'sidebar';
  width?: string;
  [key: string]: unknown;
};

/** A label as one string or one per language (`{ en: 'Title', de: 'Titel' }`): src/config/label-text.ts. */
export type LabelText = string | Record<string, string>;

export type SelectOption = { label: LabelText; value: string };

export type ValidateContext = {
  data: Record<string, unknown>;
  siblingData: Record<string, unknown>;
  operation: 'create' | 'update';
  user: User | null;
  id?: number;
};

export interface Field {
  /** Every field but the layout ones (tabs, row, collapsible) has a name. */
  name?: string;
  type: FieldType;
  /** `false` shows no label (Payload's templates write it on rich-text fields). */
  label?: LabelText | false;
  required?: boolean;
  unique?: boolean;
  index?: boolean;
  localized?: boolean;
  hidden?: boolean;
  defaultValue?: unknown | ((args: { user: User | null; locale?: string }) => unknown);
  validate?: (value: unknown, ctx: ValidateContext) => true | string | Promise<true | string>;
  access?: { read?: FieldAccessRule; create?: FieldAccessRule; update?: FieldAccessRule };
  options?: (string | SelectOption)[];
  hasMany?: boolean;
  /** One collection, or several (a polymorphic value `{ relationTo, value }`). */
  relationTo?: string | string[];
  filterOptions?: FilterOptions;
  fields?: Field[];
  /** `blocks` fields: the kinds of row they hold; `richText` fields: the blocks its text may embed. */
  blocks?: Block[];
  /** `richText` fields: the editor's tools (docs/rich-text.md); all when absent. */
  features?: string[];
  /** `tabs` fields. */
  tabs?: Tab[];
  /** `array` and `blocks` fields: bounds on the number of rows. */
  minRows?: number;
  maxRows?: number;
  min?: number;
  max?: number;
  minLength?: number;
  /** Characters; text-like fields have a default (src/fields/size-limits.ts). */
  maxLength?: number;
  /** Bytes of the value's JSON, for json and rich text (default in src/fields/size-limits.ts). */
  maxSize?: number;
  admin?: FieldAdmin;
  hooks?: Partial<Record<FieldHookName, FieldHook | FieldHook[]>>;
  /** Not stored; its value comes from an afterRead hook. */
  virtual?: boolean;
  /** join: the collection whose documents point here, through its relationship field `on` (a dot path). */
  collection?: string;
  on?: string;
  where?: Where;
  defaultLimit?: number;
  defaultSort?: string;
}

export type HookArgs = {
  data?: Record<string, unknown>;
  doc?: Record<string, unknown>;
  previousDoc?: Record<string, unknown> | null;
  originalDoc?: Record<string, unknown> | null;
  operation?: 'create' | 'update' | 'delete' | 'read';
  id?: number;
  user: User | null;
  req: unknown;
  collection?: string;
  global?: string;
};
export type Hook = (args: HookArgs) => unknown;

export type HookName =
  | 'beforeValidate'
  | 'beforeChange'
  | 'afterChange'
  | 'beforeRead'
  | 'afterRead'
  | 'beforeDelete'
  | 'afterDelete';
export const HOOK_NAMES: readonly HookName[] = [
  'beforeValidate',
  'beforeChange',
  'afterChange',
  'beforeRead',
  'afterRead',
  'beforeDelete',
  'afterDelete',
];
export type Hooks = Partial<Record<HookName, Hook[]>>;

export type IndexConfig = { fields: string[]; unique?: boolean };

export interface CollectionConfig {
  slug: string;
  fields: Field[];
  /** An upload collection: the file fields and routes of media (docs/content-model.md). */
  upload?: boolean | { mimeTypes?: string[]; imageSizes?: ImageSize[]; maxFileSize?: number };
  /** The full-text index (docs/search.md). */
  search?: SearchConfig;
  /** `true`, or `{ autosave: true | { interval } }` (docs/content-model.md). */
  drafts?: DraftsOption;
  /** Payload's spelling of drafts and the version limit. */
  versions?: VersionsOption;
  /** Deleting moves a document to the trash (a `deletedAt` stamp) instead of removing it (docs/trash.md); `keepDays` empties it. */
  trash?: boolean | { keepDays?: number };
  /** Documents sit in nested folders: a `folder` relationship to the built-in `payload-folders` (docs/media.md, "Folders"). */
  folders?: boolean;
  maxVersions?: number;
  /** Bytes of a whole document's JSON; 4 MB by default (src/fields/size-limits.ts). */
  maxDocumentSize?: number;
  /** false: documents are read without createdAt and updatedAt. */
  timestamps?: boolean;
  /** The list order when a read gives no sort (`-publishedAt`). */
  defaultSort?: string;
  access?: {
    read?: AccessRule;
    create?: AccessRule;
    update?: AccessRule;
    delete?: AccessRule;
    [extra: string]: AccessRule | undefined;
  };
  hooks?: Hooks;
  indexes?: IndexConfig[];
  livePreview?: { url?: (args: { doc: Record<string, unknown>; locale?: string }) => string };
  admin?: { useAsTitle?: string; [key: string]: unknown };
  labels?: { singular?: LabelText; plural?: LabelText };
  /** The response cache for this collection's reads (docs/caching.md); `false` when its rules or hooks are not pure. */
  cache?: EntityCacheConfig;
}

/**
 * `false`: reads are never served from the cache (they still carry an ETag). `control`: the
 * `Cache-Control` of anonymous answers (default `no-cache`). `dependsOn`: slugs of other collections or
 * globals whose changes must refresh these answers, for rules and hooks that read them.
 */
export type EntityCacheConfig = false | { control?: string; dependsOn?: string[] };
export type SanitizedEntityCache = { enabled: boolean; control: string; dependsOn: string[] };

export interface GlobalConfig {
  slug: string;
  fields: Field[];
  drafts?: DraftsOption;
  versions?: VersionsOption;
  maxVersions?: number;
  /** Bytes of a whole document's JSON; 4 MB by default (src/fields/size-limits.ts). */
  maxDocumentSize?: number;
  access?: { read?: AccessRule; update?: AccessRule };
  hooks?: Hooks;
  livePreview?: { url?: (args: { doc: Record<string, unknown>; locale?: string }) => string };
  admin?: Record<string, unknown>;
  label?: LabelText;
  cache?: EntityCacheConfig;
}

export interface WebhookConfig {
  url: string;
  events?: string[];
  collections?: string[];
  globals?: string[];
  secret?: string;
  headers?: Record<string, string>;
}

/**
 * Where uploaded files live (docs/media.md). Keys are stored file names (`photo-k3x9q2m1ab.jpg`).
 * `put` receives a finished, checked file; an adapter must not leave a partial object when it fails.
 * `get` answers null when the key is not there; a Blob body (read lazily, like `Bun.file` or an S3 file)
 * lets the file route answer byte ranges by slicing it, a stream body is served whole.
 */
export interface StorageAdapter {
  init?(): Promise<void> | void;
  put(key: string, body: Blob, options: { contentType: string; size: number }): Promise<void>;
  get(key: string): Promise<StoredFile | null>;
  delete(key: string): Promise<void>;
  /** A public URL for the key (CDN, public bucket); null or absent: served through `/media/file/:name`. */
  url?(key: string): string | null | undefined;
  /** A folder on the same filesystem as the stored files, so an arriving upload is moved in with a rename (local disk). */
  stagingDir?: string;
  /** Every stored key with its last change (epoch ms) and, when known, its size, for the sweep of crash leftovers and the backup listing; adapters without it are not swept. */
  list?(): AsyncIterable<{ key: string; lastModified: number; size?: number }>;
}
export type StoredFile = { body: Blob | ReadableStream; size: number; etag?: string; lastModified?: number };

/** The built-in S3 adapter, selected in config by a plain object (docs/media.md). */
export type S3StorageOptions = {
  type: 's3';
  bucket: string;
  region?: string;
  endpoint?: string;
  prefix?: string;
  publicUrl?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
};

/** Where and how the database and uploads are replicated (docs/replication.md). */
export type ReplicaOptions = {
  url: string;
  mode?: 'async' | 'sync';
  retentionDays?: number;
  snapshotInterval?: string;
  /** Seconds a write waits for the replica in `sync` mode before answering 503. */
  syncTimeout?: number;
  encryptionKey?: string;
  s3?: { endpoint?: string; region?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle?: boolean };
};

export type SanitizedReplica = {
  url: string;
  /** The replica's folder, or null for S3 (`bucket` and `prefix` then). */
  folder: string | null;
  bucket: string | null;
  prefix: string | null;
  s3: ReplicaOptions['s3'] & {};
  mode: 'async' | 'sync';
  retentionDays: number;
  snapshotIntervalMs: number;
  syncTimeoutMs: number;
  encryptionKey: string | null;
};

export interface ImageSize {
  name: string;
  width: number;
  height?: number;
}

export type AddressRange = { address: string; prefix: number; family: 'ipv4' | 'ipv6' };
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'all' }
  | { kind: 'hops'; hops: number }
  | { kind: 'ranges'; ranges: AddressRange[] };

/** The config as a project writes it. */
export interface UserConfig {
  serverURL?: string;
  secret?: string;
  database?: string;
  databasePool?: number;
  routes?: { api?: string; admin?: string };
  cors?: string[] | '*';
  /** Which peers are reverse proxies whose X-Forwarded-* headers count (docs/config.md). */
  trustProxy?: boolean | number | string | string[];
  auth?: {
    roles?: string[];
    tokenExpiration?: number;
    maxLoginAttempts?: number;
    lockWindow?: number;
    trustedOrigins?: string[];
    /** Roles that must sign in with two factors; a user of such a role without it sets it up at the next login. */
    requireTwoFactor?: string[];
  };
  /** Outgoing mail (password resets, invitations); or env CMS_SMTP_URL and CMS_EMAIL_FROM. */
  email?: {
    transport?: string;
    from?: string;
    /** Hosts (`cms.example.com` or `cms.example.com:8443`) a mailed link may point at when `serverURL` is not set (docs/accounts.md). */
    allowedHosts?: string[];
  };
  upload?: {
    maxFileSize?: number;
    mimeTypes?: string[];
    imageSizes?: ImageSize[];
    dir?: string;
    storage?: StorageAdapter | S3StorageOptions | null;
  };
  localization?: { locales: (string | { code: string; label?: string })[]; defaultLocale?: string; fallback?: boolean };
  webhooks?: WebhookConfig[];
  jobs?: { secret?: string };
  /** Scheduled backups and where every backup goes (docs/operations.md, "Backups"). */
  backups?: { schedule?: 'daily' | 'hourly' | string; keep?: number; dir?: string; storage?: S3StorageOptions | null };
  /** Continuous replication of the database and uploads (docs/replication.md). */
  replica?: ReplicaOptions;
  /** The response cache of GET reads (docs/caching.md): `false` turns it off; `maxSize` in bytes (default 32 MB). */
  cache?: false | { maxSize?: number };
  /** The GraphQL endpoint (docs/graphql.md): `disable` removes it; the others refuse costly queries before they run. */
  graphQL?: {
    disable?: boolean;
    maxComplexity?: number;
    maxResultSize?: number;
    maxDepth?: number;
    maxAliases?: number;
    maxBatch?: number;
    maxQueryBytes?: number;
    maxTokens?: number;
    maxSelections?: number;
    maxFields?: number;
  };
  /** Related documents one request may populate (REST `depth` and `joins`, GraphQL relationships): more is a 400. */
  maxPopulatedDocuments?: number;
  /** Limits of the realtime event streams (docs/realtime.md). */
  realtime?: RealtimeConfig;
  /** The audit log of every write (docs/audit-log.md): `false` turns it off; entries older than `keepDays` (default 365) are removed. */
  audit?: false | { keepDays?: number };
  /** The MCP endpoint for AI assistants (docs/mcp.md): `false` removes it; `requestsPerMinute` bounds each key (default 120). */
  mcp?: false | { requestsPerMinute?: number };
  /** Releases: changes to many drafts documents and globals that go live together (docs/releases.md). */
  releases?: boolean;
  /** A folder of static files (a small site) served at `/`, beside the API and the admin (docs/config.md). */
  publicDir?: string;
  collections?: CollectionConfig[];
  globals?: GlobalConfig[];
}

export interface SanitizedBlock extends Omit<Block, 'fields'> {
  /** The stored fields of a row of this block (layout fields flattened away). */
  fields: SanitizedField[];
  /** The same fields arranged as written, layout fields included, for editors. */
  editorFields: SanitizedField[];
}

export interface SanitizedTab extends Omit<Tab, 'fields'> {
  editorFields: SanitizedField[];
}

export interface SanitizedField extends Omit<Field, 'blocks' | 'tabs' | 'fields' | 'options'> {
  /** Empty for a layout field. */
  name: string;
  /** Dotted path from the document root, e.g. `seo.title` (empty for a layout field). */
  path: string;
  /** The stored fields inside a group or array row (layout fields flattened away). */
  fields?: SanitizedField[];
  /** The fields as written, layout fields included, for editors (groups, arrays, rows, collapsibles). */
  editorFields?: SanitizedField[];
  blocks?: SanitizedBlock[];
  /** Blocks by slug (`blocks` fields). */
  blocksBySlug?: Map<string, SanitizedBlock>;
  /** `richText` fields: the blocks its text may embed (kept apart from `blocks`, which means a blocks field's rows). */
  richTextBlocks?: SanitizedBlock[];
  richTextBlocksBySlug?: Map<string, SanitizedBlock>;
  tabs?: SanitizedTab[];
  options?: SelectOption[];
  /** Its own value is keyed by locale (fields inside a localized group or array are plain). */
  localized: boolean;
  /** Every field hook as a list (empty lists left out). */
  hooks?: Partial<Record<FieldHookName, FieldHook[]>>;
}

export interface SanitizedCollection
  extends Omit<
    CollectionConfig,
    'fields' | 'hooks' | 'indexes' | 'cache' | 'search' | 'trash' | 'drafts' | 'versions' | 'upload'
  > {
  /** null: not an upload collection. */
  upload: SanitizedUpload | null;
  /** Drafts saved from the admin while typing, collapsed into one version (null: off). */
  autosave: { interval: number } | null;
  /** Drafts are validated like publishes (`drafts: { validate: true }`). */
  validateDrafts: boolean;
  timestamps: boolean;
  cache: SanitizedEntityCache;
  /** null: not searchable. */
  search: SanitizedSearch | null;
  /** The stored fields (layout fields flattened away; a named tab is a group). */
  fields: SanitizedField[];
  /** The fields as written, layout fields included, for editors. */
  editorFields: SanitizedField[];
  fieldsByName: Map<string, SanitizedField>;
  hooks: Record<HookName, Hook[]>;
  indexes: IndexConfig[];
  drafts: boolean;
  /** null: a delete is final. `keepDays` null: the trash is emptied by hand only. */
  trash: { keepDays: number | null } | null;
  maxVersions: number;
  table: string;
  builtIn?: 'users' | 'media' | 'api-keys' | 'folders';
  kind: 'collection';
}

export interface SanitizedGlobal extends Omit<GlobalConfig, 'fields' | 'hooks' | 'cache' | 'drafts' | 'versions'> {
  autosave: { interval: number } | null;
  /** Drafts are validated like publishes (`drafts: { validate: true }`). */
  validateDrafts: boolean;
  cache: SanitizedEntityCache;
  fields: SanitizedField[];
  editorFields: SanitizedField[];
  fieldsByName: Map<string, SanitizedField>;
  hooks: Record<HookName, Hook[]>;
  drafts: boolean;
  maxVersions: number;
  table: string;
  kind: 'global';
}

export type Entity = SanitizedCollection | SanitizedGlobal;

export interface SanitizedConfig {
  /** The file the config came from, or null for built-in defaults. */
  configPath: string | null;
  /** Relative paths resolve against this folder. */
  rootDir: string;
  serverURL: string | null;
  secret: string | null;
  /** `sqlite` for a file path, `postgres` for a `postgres://` URL (`database`, or DATABASE_URL which beats it). */
  databaseEngine: 'sqlite' | 'postgres';
  /** The SQLite file, or the PostgreSQL URL (never print it: it may hold a password; see databaseLabel). */
  databasePath: string;
  /** What to print for the database: the file, or the URL without its password. */
  databaseLabel: string;
  /** PostgreSQL connections per instance. */
  databasePool: number;
  /** Migration files of this engine: migrations/sqlite/ or migrations/postgres/ (a flat migrations/ of an older SQLite install is kept). */
  migrationsDir: string;
  dataDir: string;
  routes: { api: string; admin: string };
  /** The folder served at `/`, or null. */
  publicDir?: string | null;
  cors: string[] | '*';
  trustProxy: TrustProxy;
  auth: {
    roles: string[];
    tokenExpiration: number;
    maxLoginAttempts: number;
    lockWindow: number;
    trustedOrigins: string[];
    requireTwoFactor: string[];
  };
  /** null: no mail is sent, and the admin offers links to copy. */
  email: { transport: string; from: string; allowedHosts: string[] } | null;
  upload: {
    maxFileSize: number;
    mimeTypes: string[];
    imageSizes: ImageSize[];
    dir: string;
    storage: StorageAdapter | S3StorageOptions | null;
  };
  localization: { locales: string[]; defaultLocale: string; fallback: boolean } | null;
  webhooks: WebhookConfig[];
  jobs: { secret: string | null };
  /** `schedule` null: backups only on demand. `dir`: the archives, or their staging folder when `storage` is S3. */
  backups: { schedule: CronSchedule | null; keep: number; dir: string; storage: S3StorageOptions | null };
  /** null: no replica. */
  replica: SanitizedReplica | null;
  /** null: no response cache. */
  cache: { maxSize: number } | null;
  /** null: no GraphQL endpoint. */
  graphQL: {
    maxComplexity: number;
    maxResultSize: number;
    maxDepth: number;
    maxAliases: number;
    maxBatch: number;
    maxQueryBytes: number;
    maxTokens: number;
    maxSelections: number;
    maxFields: number;
  } | null;
  maxPopulatedDocuments: number;
  realtime: RealtimeSettings;
  /** null: no audit log is written. */
  audit: { keepDays: number } | null;
  /** null: no MCP endpoint. */
  mcp: { requestsPerMinute: number } | null;
  releases: boolean;
  collections: SanitizedCollection[];
  globals: SanitizedGlobal[];
  collectionsBySlug: Map<string, SanitizedCollection>;
  globalsBySlug: Map<string, SanitizedGlobal>;
  dev: boolean;
}

export type RuntimeOptions = { dev?: boolean; clock?: Clock };
