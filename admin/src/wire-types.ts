/**
 * The shapes the admin reads from the API: `GET /_admin/config`, documents, lists, versions, jobs, locks.
 * Written from docs/documents.md and docs/drafts-and-versions.md; what the server declares for the wire
 * (the field types; the `where` operators in list/list-filter.ts) comes from src/wire/, as types only.
 */
import type { FieldType } from '../../src/wire/fields.ts';
import type { LabelText } from './i18n/i18n.ts';

export type { FieldType };

/** One kind of row a `blocks` field offers. */
export interface Block {
  slug: string;
  labels?: { singular?: LabelText; plural?: LabelText } | null;
  imageURL?: string | null;
  admin?: { description?: string; [k: string]: unknown } | null;
  fields: Field[];
}

export interface Tab {
  label?: LabelText | null;
  /** A named tab keeps its fields as a group under this name; an unnamed one at the level of the tabs field. */
  name?: string | null;
  description?: string | null;
  fields: Field[];
}

export interface FieldAdmin {
  readOnly?: boolean;
  description?: string;
  placeholder?: string;
  position?: 'sidebar';
  /** The config has a condition function: ask the server which paths are shown (form/conditions.ts). */
  condition?: boolean;
  language?: string;
  initCollapsed?: boolean;
  [k: string]: unknown;
}

export interface Field {
  /** Layout fields (`tabs`, `row`, `collapsible`) have none: their fields sit at their own level. */
  name: string;
  type: FieldType;
  /** `false`: no label shown (screen readers still get the field's name). */
  label?: LabelText | false | null;
  required?: boolean;
  localized?: boolean;
  hasMany?: boolean;
  /** A list makes a polymorphic relationship: its value is `{ relationTo, value }`. */
  relationTo?: string | string[] | null;
  options?: { label: LabelText; value: string }[] | null;
  admin?: FieldAdmin | null;
  fields?: Field[] | null;
  /** Rich text fields: the editor's tools (all when null). */
  features?: string[] | null;
  blocks?: Block[];
  tabs?: Tab[];
  minRows?: number;
  maxRows?: number;
  /** `join`: the collection whose field `on` points here. */
  collection?: string;
  on?: string;
  defaultLimit?: number;
  /** Only when the config states a plain value (functions cannot be sent). */
  defaultValue?: unknown;
}

export interface CollectionConfig {
  /** Deleting moves documents to a trash (docs/trash.md). */
  trash?: boolean;
  /** Documents sit in folders (`folder`, a relationship to `payload-folders`; docs/media.md). */
  folders?: boolean;
  slug: string;
  drafts?: boolean;
  builtIn?: 'users' | 'media' | 'api-keys' | 'folders' | null;
  labels?: { singular?: LabelText; plural?: LabelText } | null;
  admin?: { useAsTitle?: string };
  /** `livePreview.url` is configured: the edit view offers the live preview pane. */
  livePreview?: boolean;
  /** Drafts are saved while typing, after a pause of `interval` ms. */
  autosave?: { interval: number } | null;
  /** The collection has a full-text index: `?search=` works on it. */
  search?: boolean;
  fields: Field[];
}

export interface GlobalConfig {
  slug: string;
  drafts?: boolean;
  label?: LabelText | null;
  livePreview?: boolean;
  autosave?: { interval: number } | null;
  fields: Field[];
}

export interface AdminConfig {
  collections: CollectionConfig[];
  globals: GlobalConfig[];
  localization: { locales: string[]; defaultLocale: string } | null;
  upload: { maxFileSize: number; mimeTypes: string[] };
  /** Optional areas this server has (older servers send none). */
  features?: { audit: boolean; mcp: boolean; releases?: boolean };
}

export type Doc = Record<string, unknown> & { id?: number | string };

export interface User extends Doc {
  id: number;
  email: string;
  name?: string | null;
  role?: string;
}

export interface LoginResult {
  user: User;
  exp?: number;
  csrfToken?: string;
  /** auth.requireTwoFactor: the session only works for enrolment until two-factor sign-in is on. */
  twoFactorSetupRequired?: boolean;
}

export interface ListResult<T = Doc> {
  docs: T[];
  totalDocs: number;
  limit: number;
  page: number;
  totalPages: number;
  hasNextPage: boolean;
  hasPrevPage: boolean;
  nextPage: number | null;
  prevPage: number | null;
}

/** A bulk write's answer: 200 even when some documents failed; those are in `errors`. */
export interface BulkResult {
  docs: Doc[];
  errors: { id: number | string; message: string }[];
  message?: string;
}

/** Who holds a document's lock (docs/content-model.md, "Document locks"). */
export interface LockInfo {
  user: { id: number; email: string; name: string | null } | null;
  lockedAt: string;
  expiresAt: string;
  mine: boolean;
  token?: string;
}

export interface Version {
  id: number | string;
  parent?: number | string;
  status?: string;
  latest?: boolean;
  createdAt?: string;
  updatedAt?: string;
  version?: Doc;
  /** Who saved it: populated when the reader may read that user, else the id; null for the system. */
  author?: { id: number; email?: string | null; name?: string | null } | number | null;
}

export interface ScheduledJob {
  id: number | string;
  action: 'publish' | 'unpublish';
  at: string;
  state?: string;
  createdAt?: string;
  collection?: string;
  global?: string;
  parent?: number | null;
}
