/**
 * Typed calls per resource of the CMS API. Uploads live in upload.ts; the transport in transport.ts, the
 * shapes in wire-types.ts, the mount points in runtime-config.ts (all re-exported here).
 */
import { ApiError, api, queryString } from './transport.ts';
import type {
  AdminConfig,
  BulkResult,
  Doc,
  ListResult,
  LockInfo,
  LoginResult,
  ScheduledJob,
  User,
  Version,
} from './wire-types.ts';

export * from './runtime-config.ts';
export * from './transport.ts';
export type * from './wire-types.ts';

const seg = encodeURIComponent;

export const auth = {
  init: () => api<{ hasUsers: boolean }>('GET', '/users/init'),
  /** The logged-in user, or null. */
  me: async (): Promise<User | null> => (await auth.session())?.user ?? null,
  /** The session as `/users/me` describes it (`twoFactorSetupRequired` during a forced enrolment), or null. */
  session: async (): Promise<Pick<LoginResult, 'user' | 'twoFactorSetupRequired'> | null> => {
    try {
      const r = await api<{ user?: User | null; twoFactorSetupRequired?: boolean }>('GET', '/users/me');
      return r?.user ? { user: r.user, twoFactorSetupRequired: r.twoFactorSetupRequired } : null;
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return null;
      throw e;
    }
  },
  login: (email: string, password: string, code?: string) =>
    api<LoginResult>('POST', '/users/login', code ? { email, password, code } : { email, password }),
  forgotPassword: (email: string) => api<{ message: string }>('POST', '/users/forgot-password', { email }),
  resetPassword: (token: string, password: string, code?: string) =>
    api<LoginResult>('POST', '/users/reset-password', code ? { token, password, code } : { token, password }),
  firstRegister: (email: string, password: string, name: string) =>
    api<LoginResult>('POST', '/users/first-register', name ? { email, password, name } : { email, password }),
  logout: () => api<unknown>('POST', '/users/logout'),
};

export const adminConfig = () => api<AdminConfig>('GET', '/_admin/config');

export interface ReadParams {
  locale?: string;
  draft?: boolean;
}

export interface WriteParams extends ReadParams {
  /** A draft saved while typing: never publishes, consecutive ones collapse into one version. */
  autosave?: boolean;
  /** The document lock this editor holds (lock.ts): a save after someone took it over is refused with 409. */
  lockToken?: string | null;
}

const lockHeader = (p: WriteParams): Record<string, string> => (p.lockToken ? { 'x-cms-lock-token': p.lockToken } : {});

function readQuery(p: ReadParams, extra: Record<string, unknown> = {}) {
  return queryString({
    ...extra,
    depth: 0,
    draft: p.draft ? 'true' : undefined,
    locale: p.locale,
    'fallback-locale': p.locale ? 'false' : undefined,
  });
}

function writeQuery(p: WriteParams) {
  return queryString({
    depth: 0,
    draft: p.draft ? 'true' : undefined,
    autosave: p.autosave ? 'true' : undefined,
    locale: p.locale,
  });
}

export interface ListParams extends ReadParams {
  page?: number;
  limit?: number;
  sort?: string;
  where?: Record<string, unknown>;
  /** 0 (ids) unless asked: the list view populates one level to show names. */
  depth?: number;
  /** Full-text terms (collections with `search`), best match first unless `sort` is given. */
  search?: string;
}

export const docs = {
  list: (slug: string, p: ListParams = {}) =>
    api<ListResult>(
      'GET',
      `/${seg(slug)}${queryString({ limit: p.limit ?? 20, page: p.page ?? 1, sort: p.sort, where: p.where, search: p.search || undefined, depth: p.depth ?? 0, locale: p.locale, draft: p.draft ? 'true' : undefined })}`,
    ),
  get: (slug: string, id: string | number, p: ReadParams = {}) =>
    api<Doc>('GET', `/${seg(slug)}/${seg(String(id))}${readQuery(p)}`),
  create: (slug: string, data: Doc, p: WriteParams = {}) =>
    api<{ doc: Doc; message?: string }>('POST', `/${seg(slug)}${writeQuery(p)}`, data),
  update: (slug: string, id: string | number, data: Doc, p: WriteParams = {}) =>
    api<{ doc: Doc; message?: string }>(
      'PATCH',
      `/${seg(slug)}/${seg(String(id))}${writeQuery(p)}`,
      data,
      lockHeader(p),
    ),
  remove: (slug: string, id: string | number) => api<{ doc: Doc }>('DELETE', `/${seg(slug)}/${seg(String(id))}`),
  /** The server's duplicate: a new document copied from the stored one, `data` changed in it (a draft where the collection has drafts). */
  duplicate: (slug: string, id: string | number, data: Doc, p: ReadParams = {}) =>
    api<{ doc: Doc; message?: string }>(
      'POST',
      `/${seg(slug)}/${seg(String(id))}/duplicate${queryString({ depth: 0, locale: p.locale })}`,
      data,
    ),
  /** Bulk routes (docs/payload-compatibility.md): every matching document the caller may change, each on its own. */
  updateMany: (slug: string, where: Record<string, unknown>, data: Doc, p: ReadParams = {}) =>
    api<BulkResult>(
      'PATCH',
      `/${seg(slug)}${queryString({ where, depth: 0, draft: p.draft ? 'true' : undefined, locale: p.locale })}`,
      data,
    ),
  removeMany: (slug: string, where: Record<string, unknown>) =>
    api<BulkResult>('DELETE', `/${seg(slug)}${queryString({ where, depth: 0 })}`),
};

export const globals = {
  get: (slug: string, p: ReadParams = {}) => api<Doc>('GET', `/globals/${seg(slug)}${readQuery(p)}`),
  save: (slug: string, data: Doc, p: WriteParams = {}) =>
    api<{ doc: Doc; message?: string }>('POST', `/globals/${seg(slug)}${writeQuery(p)}`, data, lockHeader(p)),
};

/** `{ collection, id }` or `{ global }`: the document a lock or a condition check is about. */
export type DocumentOwner = { collection: string; id: string | number } | { global: string };

const lockPath = (o: DocumentOwner) =>
  'global' in o ? `/globals/${seg(o.global)}/lock` : `/${seg(o.collection)}/${seg(String(o.id))}/lock`;

export const locks = {
  read: (o: DocumentOwner, token?: string | null) =>
    api<{ lock: LockInfo | null }>('GET', lockPath(o), undefined, lockHeader({ lockToken: token })),
  /** Takes a free lock, renews ours (with our token), or with `takeover` takes it from its holder. */
  take: (o: DocumentOwner, token?: string | null, takeover = false) =>
    api<{ lock: LockInfo }>('POST', lockPath(o), takeover ? { takeover: true } : {}, lockHeader({ lockToken: token })),
  release: (o: DocumentOwner, token: string) =>
    api<{ lock: null }>('DELETE', lockPath(o), undefined, lockHeader({ lockToken: token })),
};

/** Which fields with an `admin.condition` are shown for `data`, by path. */
export const fieldConditions = (o: { collection: string } | { global: string }, data: Doc) =>
  api<{ visible: Record<string, boolean> }>(
    'POST',
    'global' in o ? `/_admin/conditions/globals/${seg(o.global)}` : `/_admin/conditions/${seg(o.collection)}`,
    { data },
  );

/** Base path of a document's version routes: `/posts/3` or `/globals/settings`. */
export type VersionOwner = { collection: string; id: string | number } | { global: string };

function ownerPath(o: VersionOwner): string {
  return 'global' in o ? `/globals/${seg(o.global)}` : `/${seg(o.collection)}/${seg(String(o.id))}`;
}

/** What documents and globals with drafts share: unpublish, discard the pending draft, versions, schedule. */
export const drafts = {
  unpublish: (o: VersionOwner) => api<{ doc: Doc }>('POST', `${ownerPath(o)}/unpublish`),
  discard: (o: VersionOwner) => api<{ doc: Doc }>('POST', `${ownerPath(o)}/discard-draft`),
};

export const schedule = {
  list: (o: VersionOwner) => api<{ docs: ScheduledJob[] }>('GET', `${ownerPath(o)}/schedule`),
  add: (o: VersionOwner, action: 'publish' | 'unpublish', at: string) =>
    api<{ doc: ScheduledJob }>('POST', `${ownerPath(o)}/schedule`, { action, at }),
  cancel: (o: VersionOwner, job: string | number) =>
    api<{ doc: ScheduledJob }>('DELETE', `${ownerPath(o)}/schedule/${seg(String(job))}`),
  /** Admins: pending jobs across the site (`GET /jobs/scheduled`), soonest first; `parent` is a comma-separated id list. */
  pending: (q: { page?: number; limit?: number; collection?: string; parent?: string }) =>
    api<ListResult<ScheduledJob>>('GET', `/jobs/scheduled${queryString(q)}`),
};

export const versions = {
  list: (o: VersionOwner, page = 1, locale?: string) =>
    api<ListResult<Version>>(
      'GET',
      `${ownerPath(o)}/versions${queryString({ limit: 10, page, depth: 0, author: 'true', locale, 'fallback-locale': locale ? 'false' : undefined })}`,
    ),
  /** One version of the document, whole. */
  get: (o: VersionOwner, version: string | number) =>
    api<Version>('GET', `${ownerPath(o)}/versions/${seg(String(version))}${queryString({ depth: 0 })}`),
  restore: (o: VersionOwner, version: string | number) =>
    api<{ doc: Doc }>('POST', `${ownerPath(o)}/versions/${seg(String(version))}/restore`),
};

/** The preview endpoint (docs/drafts-and-versions.md): the unsaved values merged (nothing saved) and the site's URL with a signed preview token. */
export const preview = (o: VersionOwner, data: Doc, locale?: string) =>
  api<{ doc: Doc; url: string }>('POST', `${ownerPath(o)}/preview${queryString({ depth: 0, locale })}`, data);
