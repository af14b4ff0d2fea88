/** Talking to the CMS API from the admin: one `api()` for JSON, typed calls per resource. Uploads live in upload.ts. */

export interface RuntimeConfig {
  apiPrefix: string
  adminPrefix: string
}

declare global {
  interface Window {
    __CMS__?: Partial<RuntimeConfig>
  }
}

const trimSlash = (s: string) => (s.length > 1 ? s.replace(/\/+$/, '') : s === '/' ? '' : s)

// `window.__CMS__` is injected into index.html by the server (src/http/admin-assets.ts).
const injected = typeof window === 'undefined' ? undefined : window.__CMS__

export const runtime: RuntimeConfig = {
  apiPrefix: trimSlash(injected?.apiPrefix ?? '/api/cms'),
  adminPrefix: trimSlash(injected?.adminPrefix ?? '/admin'),
}

// ---------------------------------------------------------------- shapes (GET /_admin/config)

export type FieldType =
  | 'text' | 'textarea' | 'email' | 'number' | 'checkbox' | 'date' | 'select'
  | 'relationship' | 'upload' | 'json' | 'markdown' | 'array' | 'group'
  | 'blocks' | 'tabs' | 'row' | 'collapsible' | 'radio' | 'code' | 'point' | 'join' | 'richText'

/** One kind of row a `blocks` field offers. */
export interface Block {
  slug: string
  labels?: { singular?: string; plural?: string } | null
  imageURL?: string | null
  admin?: { description?: string; [k: string]: unknown } | null
  fields: Field[]
}

export interface Tab {
  label?: string | null
  /** A named tab keeps its fields as a group under this name; an unnamed one at the level of the tabs field. */
  name?: string | null
  description?: string | null
  fields: Field[]
}

export interface FieldAdmin {
  readOnly?: boolean
  description?: string
  placeholder?: string
  position?: 'sidebar'
  /** The config has a condition function: ask the server which paths are shown (form/conditions.ts). */
  condition?: boolean
  language?: string
  initCollapsed?: boolean
  [k: string]: unknown
}

export interface Field {
  /** Layout fields (`tabs`, `row`, `collapsible`) have none: their fields sit at their own level. */
  name: string
  type: FieldType
  label?: string | null
  required?: boolean
  localized?: boolean
  hasMany?: boolean
  /** A list makes a polymorphic relationship: its value is `{ relationTo, value }`. */
  relationTo?: string | string[] | null
  options?: { label: string; value: string }[] | null
  admin?: FieldAdmin | null
  fields?: Field[] | null
  /** Rich text fields: the editor's tools (all when null). */
  features?: string[] | null
  blocks?: Block[]
  tabs?: Tab[]
  minRows?: number
  maxRows?: number
  /** `join`: the collection whose field `on` points here. */
  collection?: string
  on?: string
  defaultLimit?: number
  /** Only when the config states a plain value (functions cannot be sent). */
  defaultValue?: unknown
}

export interface CollectionConfig {
  /** Deleting moves documents to a trash (docs/trash.md). */
  trash?: boolean
  slug: string
  drafts?: boolean
  builtIn?: 'users' | 'media' | 'api-keys' | null
  labels?: { singular?: string; plural?: string } | null
  admin?: { useAsTitle?: string }
  /** `livePreview.url` is configured: the edit view offers the live preview pane. */
  livePreview?: boolean
  /** Drafts are saved while typing, after a pause of `interval` ms. */
  autosave?: { interval: number } | null
  /** The collection has a full-text index: `?search=` works on it. */
  search?: boolean
  fields: Field[]
}

export interface GlobalConfig {
  slug: string
  drafts?: boolean
  label?: string | null
  livePreview?: boolean
  autosave?: { interval: number } | null
  fields: Field[]
}

export interface AdminConfig {
  collections: CollectionConfig[]
  globals: GlobalConfig[]
  localization: { locales: string[]; defaultLocale: string } | null
  upload: { maxFileSize: number; mimeTypes: string[] }
  /** Optional areas this server has (older servers send none). */
  features?: { audit: boolean; mcp: boolean }
}

export type Doc = Record<string, unknown> & { id?: number | string }

export interface User extends Doc {
  id: number
  email: string
  name?: string | null
  role?: string
}

export interface LoginResult {
  user: User
  exp?: number
  csrfToken?: string
  /** auth.requireTwoFactor: the session only works for enrolment until two-factor sign-in is on. */
  twoFactorSetupRequired?: boolean
}

export interface ListResult<T = Doc> {
  docs: T[]
  totalDocs: number
  limit: number
  page: number
  totalPages: number
  hasNextPage: boolean
  hasPrevPage: boolean
  nextPage: number | null
  prevPage: number | null
}

export interface FieldError {
  message: string
  field?: string
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [{ message }],
  ) {
    super(message)
  }
  get field(): string | undefined {
    return this.errors[0]?.field
  }
}

// ---------------------------------------------------------------- transport

let csrfToken: string | undefined

export function setCsrfToken(token: string | null | undefined): void {
  csrfToken = token ?? undefined
}

/**
 * The CSRF token. The readable `cms-csrf` cookie wins because the server renews it (a password change
 * starts a new session); the token from login or /users/me covers browsers that hide the cookie.
 */
export function currentCsrf(): string | undefined {
  const m = document.cookie.match(/(?:^|;\s*)cms-csrf=([^;]*)/)
  return (m && m[1] ? decodeURIComponent(m[1]) : undefined) ?? csrfToken
}

/** `{ limit: 10, where: { title: { like: 'x' } } }` → `limit=10&where[title][like]=x` (the bracket form the API reads). */
export function queryString(params: Record<string, unknown>): string {
  const parts: string[] = []
  const add = (key: string, value: unknown) => {
    if (value === undefined || value === null || value === '') return
    if (typeof value === 'object') {
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) add(`${key}[${k}]`, v)
    } else parts.push(`${encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(String(value))}`)
  }
  for (const [k, v] of Object.entries(params)) add(k, v)
  return parts.length ? `?${parts.join('&')}` : ''
}

export function errorFromBody(status: number, data: any): ApiError {
  const list: FieldError[] = Array.isArray(data?.errors) ? data.errors.filter((e: any) => typeof e?.message === 'string') : []
  const fallback = status === 413 ? 'The file is too large.' : status === 0 ? 'The server cannot be reached.' : `Request failed (${status}).`
  return new ApiError(status, list[0]?.message ?? fallback, list.length ? list : [{ message: fallback }])
}

const sessionEnded = () => dispatchEvent(new Event('cms:unauthorized'))

async function confirmSession(): Promise<void> {
  try {
    const res = await fetch(`${runtime.apiPrefix}/users/me`, { credentials: 'same-origin', headers: { accept: 'application/json' } })
    if (res.ok && !(await res.json())?.user) sessionEnded()
  } catch {
    // Offline: leave the error as it is.
  }
}

export async function api<T>(method: string, path: string, body?: unknown, extraHeaders: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...extraHeaders }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (method !== 'GET' && method !== 'HEAD') {
    const token = currentCsrf()
    if (token) headers['x-csrf-token'] = token
  }
  let res: Response
  try {
    res = await fetch(runtime.apiPrefix + path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(0, 'The server cannot be reached.')
  }
  const text = await res.text()
  let data: any = null
  try {
    data = text ? JSON.parse(text) : null
  } catch {
    data = null
  }
  if (!res.ok) {
    // A session that ended elsewhere (logout, password change, deactivation): the app shows the login.
    // Some refusals of a logged-out request arrive as 403/404 (the document is hidden), so ask /users/me.
    if (!/^\/users\/(login|first-register|me|reset-password|forgot-password)/.test(path)) {
      if (res.status === 401) sessionEnded()
      else if (res.status === 403 || res.status === 404) void confirmSession()
    }
    throw errorFromBody(res.status, data)
  }
  if (typeof data?.csrfToken === 'string') setCsrfToken(data.csrfToken)
  return data as T
}

const seg = encodeURIComponent

// ---------------------------------------------------------------- resources

export const auth = {
  init: () => api<{ hasUsers: boolean }>('GET', '/users/init'),
  /** The logged-in user, or null. */
  me: async (): Promise<User | null> => (await auth.session())?.user ?? null,
  /** The session as `/users/me` describes it (`twoFactorSetupRequired` during a forced enrolment), or null. */
  session: async (): Promise<Pick<LoginResult, 'user' | 'twoFactorSetupRequired'> | null> => {
    try {
      const r = await api<{ user?: User | null; twoFactorSetupRequired?: boolean }>('GET', '/users/me')
      return r?.user ? { user: r.user, twoFactorSetupRequired: r.twoFactorSetupRequired } : null
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403)) return null
      throw e
    }
  },
  login: (email: string, password: string, code?: string) => api<LoginResult>('POST', '/users/login', code ? { email, password, code } : { email, password }),
  forgotPassword: (email: string) => api<{ message: string }>('POST', '/users/forgot-password', { email }),
  resetPassword: (token: string, password: string, code?: string) =>
    api<LoginResult>('POST', '/users/reset-password', code ? { token, password, code } : { token, password }),
  firstRegister: (email: string, password: string, name: string) =>
    api<LoginResult>('POST', '/users/first-register', name ? { email, password, name } : { email, password }),
  logout: () => api<unknown>('POST', '/users/logout'),
}

export const adminConfig = () => api<AdminConfig>('GET', '/_admin/config')

export interface ReadParams {
  locale?: string
  draft?: boolean
}

export interface WriteParams extends ReadParams {
  /** A draft saved while typing: never publishes, consecutive ones collapse into one version. */
  autosave?: boolean
  /** The document lock this editor holds (lock.ts): a save after someone took it over is refused with 409. */
  lockToken?: string | null
}

const lockHeader = (p: WriteParams): Record<string, string> => (p.lockToken ? { 'x-cms-lock-token': p.lockToken } : {})

function readQuery(p: ReadParams, extra: Record<string, unknown> = {}) {
  return queryString({ ...extra, depth: 0, draft: p.draft ? 'true' : undefined, locale: p.locale, 'fallback-locale': p.locale ? 'false' : undefined })
}

function writeQuery(p: WriteParams) {
  return queryString({ depth: 0, draft: p.draft ? 'true' : undefined, autosave: p.autosave ? 'true' : undefined, locale: p.locale })
}

export interface ListParams extends ReadParams {
  page?: number
  limit?: number
  sort?: string
  where?: Record<string, unknown>
  /** 0 (ids) unless asked: the list view populates one level to show names. */
  depth?: number
  /** Full-text terms (collections with `search`), best match first unless `sort` is given. */
  search?: string
}

export const docs = {
  list: (slug: string, p: ListParams = {}) =>
    api<ListResult>('GET', `/${seg(slug)}${queryString({ limit: p.limit ?? 20, page: p.page ?? 1, sort: p.sort, where: p.where, search: p.search || undefined, depth: p.depth ?? 0, locale: p.locale, draft: p.draft ? 'true' : undefined })}`),
  get: (slug: string, id: string | number, p: ReadParams = {}) => api<Doc>('GET', `/${seg(slug)}/${seg(String(id))}${readQuery(p)}`),
  create: (slug: string, data: Doc, p: WriteParams = {}) =>
    api<{ doc: Doc; message?: string }>('POST', `/${seg(slug)}${writeQuery(p)}`, data),
  update: (slug: string, id: string | number, data: Doc, p: WriteParams = {}) =>
    api<{ doc: Doc; message?: string }>('PATCH', `/${seg(slug)}/${seg(String(id))}${writeQuery(p)}`, data, lockHeader(p)),
  remove: (slug: string, id: string | number) => api<{ doc: Doc }>('DELETE', `/${seg(slug)}/${seg(String(id))}`),
  /** Bulk routes (docs/payload-compatibility.md): every matching document the caller may change, each on its own. */
  updateMany: (slug: string, where: Record<string, unknown>, data: Doc, p: ReadParams = {}) =>
    api<BulkResult>('PATCH', `/${seg(slug)}${queryString({ where, depth: 0, draft: p.draft ? 'true' : undefined, locale: p.locale })}`, data),
  removeMany: (slug: string, where: Record<string, unknown>) => api<BulkResult>('DELETE', `/${seg(slug)}${queryString({ where, depth: 0 })}`),
}

/** A bulk write's answer: 200 even when some documents failed; those are in `errors`. */
export interface BulkResult {
  docs: Doc[]
  errors: { id: number | string; message: string }[]
  message?: string
}

export const globals = {
  get: (slug: string, p: ReadParams = {}) => api<Doc>('GET', `/globals/${seg(slug)}${readQuery(p)}`),
  save: (slug: string, data: Doc, p: WriteParams = {}) =>
    api<{ doc: Doc; message?: string }>('POST', `/globals/${seg(slug)}${writeQuery(p)}`, data, lockHeader(p)),
}

/** Who holds a document's lock (docs/content-model.md, "Document locks"). */
export interface LockInfo {
  user: { id: number; email: string; name: string | null } | null
  lockedAt: string
  expiresAt: string
  mine: boolean
  token?: string
}

/** `{ collection, id }` or `{ global }`: the document a lock or a condition check is about. */
export type DocumentOwner = { collection: string; id: string | number } | { global: string }

const lockPath = (o: DocumentOwner) => ('global' in o ? `/globals/${seg(o.global)}/lock` : `/${seg(o.collection)}/${seg(String(o.id))}/lock`)

export const locks = {
  read: (o: DocumentOwner, token?: string | null) => api<{ lock: LockInfo | null }>('GET', lockPath(o), undefined, lockHeader({ lockToken: token })),
  /** Takes a free lock, renews ours (with our token), or with `takeover` takes it from its holder. */
  take: (o: DocumentOwner, token?: string | null, takeover = false) => api<{ lock: LockInfo }>('POST', lockPath(o), takeover ? { takeover: true } : {}, lockHeader({ lockToken: token })),
  release: (o: DocumentOwner, token: string) => api<{ lock: null }>('DELETE', lockPath(o), undefined, lockHeader({ lockToken: token })),
}

/** Which fields with an `admin.condition` are shown for `data`, by path. */
export const fieldConditions = (o: { collection: string } | { global: string }, data: Doc) =>
  api<{ visible: Record<string, boolean> }>('POST', 'global' in o ? `/_admin/conditions/globals/${seg(o.global)}` : `/_admin/conditions/${seg(o.collection)}`, { data })

export interface Version {
  id: number | string
  parent?: number | string
  status?: string
  latest?: boolean
  createdAt?: string
  updatedAt?: string
  version?: Doc
  /** Who saved it: populated when the reader may read that user, else the id; null for the system. */
  author?: { id: number; email?: string | null; name?: string | null } | number | null
}

/** Base path of a document's version routes: `/posts/3` or `/globals/settings`. */
export type VersionOwner = { collection: string; id: string | number } | { global: string }

function ownerPath(o: VersionOwner): string {
  return 'global' in o ? `/globals/${seg(o.global)}` : `/${seg(o.collection)}/${seg(String(o.id))}`
}

/** What documents and globals with drafts share: unpublish, discard the pending draft, versions, schedule. */
export const drafts = {
  unpublish: (o: VersionOwner) => api<{ doc: Doc }>('POST', `${ownerPath(o)}/unpublish`),
  discard: (o: VersionOwner) => api<{ doc: Doc }>('POST', `${ownerPath(o)}/discard-draft`),
}

export interface ScheduledJob {
  id: number | string
  action: 'publish' | 'unpublish'
  at: string
  state?: string
  createdAt?: string
  collection?: string
  global?: string
  parent?: number | null
}

export const schedule = {
  list: (o: VersionOwner) => api<{ docs: ScheduledJob[] }>('GET', `${ownerPath(o)}/schedule`),
  add: (o: VersionOwner, action: 'publish' | 'unpublish', at: string) => api<{ doc: ScheduledJob }>('POST', `${ownerPath(o)}/schedule`, { action, at }),
  cancel: (o: VersionOwner, job: string | number) => api<{ doc: ScheduledJob }>('DELETE', `${ownerPath(o)}/schedule/${seg(String(job))}`),
  /** Admins: pending jobs across the site (`GET /jobs/scheduled`), soonest first; `parent` is a comma-separated id list. */
  pending: (q: { page?: number; limit?: number; collection?: string; parent?: string }) => api<ListResult<ScheduledJob>>('GET', `/jobs/scheduled${queryString(q)}`),
}

export const versions = {
  list: (o: VersionOwner, page = 1, locale?: string) =>
    api<ListResult<Version>>('GET', `${ownerPath(o)}/versions${queryString({ limit: 10, page, depth: 0, author: 'true', locale, 'fallback-locale': locale ? 'false' : undefined })}`),
  restore: (o: VersionOwner, version: string | number) =>
    api<{ doc: Doc }>('POST', `${ownerPath(o)}/versions/${seg(String(version))}/restore`),
}

/** The preview endpoint (docs/drafts-and-versions.md): the unsaved values merged (nothing saved) and the site's URL with a signed preview token. */
export const preview = (o: VersionOwner, data: Doc, locale?: string) =>
  api<{ doc: Doc; url: string }>('POST', `${ownerPath(o)}/preview${queryString({ depth: 0, locale })}`, data)
