/**
 * Serves the prebuilt admin (admin/dist, made by admin/build.ts).
 *
 * - From source: read from admin/dist on disk (re-scanned when index.html
 *   changes, so `bun admin/build.ts --watch` works without a restart).
 * - Compiled: from the files embedded by src/build/plugins.ts
 *   (src/build/admin-manifest.ts becomes a map of file imports).
 *
 * The server mounts this under its admin prefix and passes the rest of the
 * path: `serveAdminAsset('/assets/main-AB12CD34.js', request)`.
 * index.html gets the admin prefix and `window.__CMS__` (see
 * setAdminRuntimeConfig) filled in at serve time.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { adminManifest } from '../build/admin-manifest.ts'

export interface AdminRuntimeConfig {
  /** e.g. `/api/cms` */
  apiPrefix: string
  /** e.g. `/admin` */
  adminPrefix: string
  /** Anything else the admin should know at start (serverURL, version, …); must be JSON. */
  [key: string]: unknown
}

const DEFAULT_CONFIG: AdminRuntimeConfig = { apiPrefix: '/api/cms', adminPrefix: '/admin' }
const SOURCE_DIST = resolve(import.meta.dir, '../../admin/dist')

const BASE_PLACEHOLDER = /__CMS_ADMIN_BASE__/g
const CONFIG_PLACEHOLDER = '<!--cms:runtime-config-->'

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  wasm: 'application/wasm',
}
const COMPRESSIBLE = /^(text\/|application\/(json|javascript)|image\/svg)/

/** esbuild's `[name]-[hash]` file names below assets/. */
const HASHED = /^\/assets\/.+-[A-Z0-9]{8}\.[a-z0-9]+$/

interface Loaded {
  body: Uint8Array<ArrayBuffer>
  etag: string
  gzip?: { body: Uint8Array<ArrayBuffer>; etag: string } | null
}

let runtimeConfig: AdminRuntimeConfig = { ...DEFAULT_CONFIG }
let files: Map<string, string> | null = null // path below the mount → file to read
let filesKey = '' // source mode: index.html's mtime+size when `files` was built
const loaded = new Map<string, Loaded>()
let index: Loaded | null = null

function trimSlash(p: string): string {
  const t = p.replace(/\/+$/, '')
  return t === '' ? '' : t.startsWith('/') ? t : `/${t}`
}

/**
 * Tells the admin where the API is. Call at server start (and again if the
 * prefixes change). Extra keys are passed to the admin as they are.
 */
export function setAdminRuntimeConfig(config: Partial<AdminRuntimeConfig>): void {
  runtimeConfig = {
    ...DEFAULT_CONFIG,
    ...config,
    apiPrefix: trimSlash(config.apiPrefix ?? DEFAULT_CONFIG.apiPrefix),
    adminPrefix: trimSlash(config.adminPrefix ?? DEFAULT_CONFIG.adminPrefix),
  }
  index = null
}

/** Where the admin comes from: embedded in the binary, admin/dist on disk, or nowhere. */
export function adminAssetsSource(): 'embedded' | 'disk' | 'none' {
  const f = currentFiles()
  if (!f) return 'none'
  return adminManifest ? 'embedded' : 'disk'
}

function currentFiles(): Map<string, string> | null {
  if (adminManifest) {
    if (!files) {
      files = new Map(Object.entries(adminManifest))
      if (!files.has('/index.html')) files = null
    }
    return files
  }
  // From source: admin/dist on disk.
  const indexFile = join(SOURCE_DIST, 'index.html')
  let key = ''
  try {
    const st = statSync(indexFile)
    key = `${st.mtimeMs}:${st.size}`
  } catch {
    files = null
    filesKey = ''
    return null
  }
  if (key !== filesKey) {
    files = new Map(listDist(SOURCE_DIST).map((rel) => [`/${rel}`, join(SOURCE_DIST, rel)]))
    filesKey = key
    loaded.clear()
    index = null
  }
  return files
}

function listDist(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name.startsWith('.')) continue
      if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`)
      else if (e.isFile() && !e.name.endsWith('.map')) out.push(prefix + e.name)
    }
  }
  if (existsSync(dir)) walk(dir, '')
  return out
}

function etagOf(body: Uint8Array): string {
  return `"${Bun.hash(body).toString(36)}-${body.byteLength.toString(36)}"`
}

function load(path: string, file: string): Loaded {
  let l = loaded.get(path)
  if (!l) {
    const body = new Uint8Array(readFileSync(file))
    l = { body, etag: etagOf(body) }
    loaded.set(path, l)
  }
  return l
}

function htmlAttr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function scriptJson(v: unknown): string {
  return JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

function loadIndex(file: string): Loaded {
  if (!index) {
    const template = readFileSync(file, 'utf8')
    const html = template
      .replace(BASE_PLACEHOLDER, htmlAttr(runtimeConfig.adminPrefix))
      .replace(CONFIG_PLACEHOLDER, `<script>window.__CMS__=${scriptJson(runtimeConfig)}</script>`)
    const body = new TextEncoder().encode(html)
    index = { body, etag: etagOf(body) }
  }
  return index
}

function gzipped(l: Loaded): { body: Uint8Array<ArrayBuffer>; etag: string } | null {
  if (l.gzip === undefined) {
    if (l.body.byteLength < 1024) l.gzip = null
    else {
      const body = Bun.gzipSync(l.body, { level: 9 })
      l.gzip = body.byteLength < l.body.byteLength * 0.9 ? { body, etag: l.etag.replace(/"$/, '-gz"') } : null
    }
  }
  return l.gzip
}

function typeOf(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase()
  return TYPES[ext] ?? 'application/octet-stream'
}

function notModified(request: Request, ...etags: string[]): boolean {
  const inm = request.headers.get('if-none-match')
  if (!inm) return false
  if (inm.trim() === '*') return true
  const sent = inm.split(',').map((t) => t.trim().replace(/^W\//, ''))
  return sent.some((t) => etags.includes(t))
}

function plain(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...extra },
  })
}

function respond(request: Request, path: string, l: Loaded, isIndex: boolean): Response {
  const type = isIndex ? TYPES.html! : typeOf(path)
  const headers: Record<string, string> = {
    'content-type': type,
    'cache-control': isIndex ? 'no-cache' : HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  }
  if (isIndex) {
    headers['x-frame-options'] = 'SAMEORIGIN'
    headers['content-security-policy'] = "frame-ancestors 'self'"
    headers['referrer-policy'] = 'same-origin'
  }
  const gz = COMPRESSIBLE.test(type) && /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '') ? gzipped(l) : null
  if (COMPRESSIBLE.test(type)) headers['vary'] = 'Accept-Encoding'
  const etag = gz ? gz.etag : l.etag
  headers['etag'] = etag
  if (notModified(request, l.etag, l.etag.replace(/"$/, '-gz"'))) {
    return new Response(null, { status: 304, headers })
  }
  const body = gz ? gz.body : l.body
  if (gz) headers['content-encoding'] = 'gzip'
  headers['content-length'] = String(body.byteLength)
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers })
}

/**
 * Answers a request for `pathname` (relative to the admin mount: `/`,
 * `/assets/main-AB12CD34.js`, `/collections/posts`), or null when no admin
 * was built. Unknown paths without a file extension get index.html (the admin
 * routes on the client); unknown files get a 404.
 */
export function serveAdminAsset(pathname: string, request: Request): Response | null {
  const f = currentFiles()
  const indexFile = f?.get('/index.html')
  if (!f || !indexFile) return null

  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return plain(405, 'Method Not Allowed', { allow: 'GET, HEAD' })
  }

  let path: string
  try {
    path = decodeURIComponent(pathname || '/')
  } catch {
    return plain(400, 'Bad Request')
  }
  const q = path.search(/[?#]/)
  if (q >= 0) path = path.slice(0, q)
  if (!path.startsWith('/')) path = `/${path}`
  // Nothing outside admin/dist: files are only ever looked up by exact name in
  // the list of files that exist there; dot segments and odd characters are refused outright.
  if (path.includes('\0') || path.includes('\\') || path.split('/').some((s) => s === '..' || s === '.')) {
    return plain(404, 'Not Found')
  }

  try {
    if (path === '/' || path === '/index.html') return respond(request, path, loadIndex(indexFile), true)
    const file = f.get(path)
    if (file) return respond(request, path, load(path, file), false)
    const last = path.slice(path.lastIndexOf('/') + 1)
    if (path.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(last)) return plain(404, 'Not Found')
    return respond(request, '/index.html', loadIndex(indexFile), true)
  } catch (err) {
    // A file vanished between listing and reading (an admin rebuild from source).
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      filesKey = ''
      return plain(404, 'Not Found')
    }
    throw err
  }
}
