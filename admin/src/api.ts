/** Talking to the CMS API from the admin. */

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

export const runtime: RuntimeConfig = {
  apiPrefix: trimSlash(window.__CMS__?.apiPrefix ?? '/api/cms'),
  adminPrefix: trimSlash(window.__CMS__?.adminPrefix ?? '/admin'),
}

export interface Field {
  name: string
  type: string
  label?: string
  required?: boolean
  hidden?: boolean
  [k: string]: unknown
}

export interface CollectionConfig {
  slug: string
  labels?: { singular?: string; plural?: string }
  fields: Field[]
  admin?: { useAsTitle?: string }
  drafts?: boolean
  upload?: unknown
}

export interface GlobalConfig {
  slug: string
  label?: string
  fields: Field[]
}

export interface AdminConfig {
  collections: CollectionConfig[]
  globals: GlobalConfig[]
}

export interface User {
  id: number
  email: string
  name?: string
  role?: string
  roles?: string[]
  [k: string]: unknown
}

export interface LoginResult {
  user: User
  exp?: number
  csrfToken?: string
}

export interface ListResult<T = Record<string, unknown>> {
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

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message)
  }
}

let csrfToken: string | undefined

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token
}

/** The CSRF token: the one login returned, else the readable `cms-csrf` cookie. */
function currentCsrf(): string | undefined {
  if (csrfToken) return csrfToken
  const m = document.cookie.match(/(?:^|;\s*)cms-csrf=([^;]*)/)
  return m ? decodeURIComponent(m[1]!) : undefined
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
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
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(0, 'The server cannot be reached.')
  }
  const text = await res.text()
  let data: any = null
  if (text) {
    try {
      data = JSON.parse(text)
    } catch {
      data = null
    }
  }
  if (!res.ok) {
    const first = data?.errors?.[0]
    throw new ApiError(res.status, first?.message ?? `Request failed (${res.status})`, first?.field)
  }
  return data as T
}

export const auth = {
  init: () => api<{ hasUsers: boolean }>('GET', '/users/init'),
  /** The logged-in user, or null. Expects Payload's `GET /users/me` → `{ user }`. */
  me: async (): Promise<User | null> => {
    try {
      const r = await api<{ user?: User | null }>('GET', '/users/me')
      return r?.user ?? null
    } catch (e) {
      if (e instanceof ApiError && (e.status === 401 || e.status === 403 || e.status === 404)) return null
      throw e
    }
  },
  login: (email: string, password: string) => api<LoginResult>('POST', '/users/login', { email, password }),
  firstRegister: (email: string, password: string, name: string) =>
    api<LoginResult>('POST', '/users/first-register', { email, password, name }),
  logout: () => api<unknown>('POST', '/users/logout'),
}

export const adminConfig = () => api<AdminConfig>('GET', '/_admin/config')

export const listDocs = (slug: string, page = 1, limit = 20) =>
  api<ListResult>('GET', `/${encodeURIComponent(slug)}?limit=${limit}&page=${page}`)
