/**
 * Answers for built static files (the admin's): content type by extension, gzip when it pays, caching by
 * hashed name, an ETag with 304s through the one conditional-GET check (conditional-get.ts), HEAD.
 */
import { notModified } from './conditional-get.ts';

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
};
const COMPRESSIBLE = /^(text\/|application\/(json|javascript)|image\/svg)/;

/** esbuild's `[name]-[hash]` file names below assets/. */
const HASHED = /^\/assets\/.+-[A-Z0-9]{8}\.[a-z0-9]+$/;

export interface Loaded {
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  gzip?: { body: Uint8Array<ArrayBuffer>; etag: string } | null;
}

export function etagOf(body: Uint8Array): string {
  return `"${Bun.hash(body).toString(36)}-${body.byteLength.toString(36)}"`;
}

function gzipped(l: Loaded): { body: Uint8Array<ArrayBuffer>; etag: string } | null {
  if (l.gzip === undefined) {
    if (l.body.byteLength < 1024) l.gzip = null;
    else {
      const body = Bun.gzipSync(l.body, { level: 9 });
      l.gzip = body.byteLength < l.body.byteLength * 0.9 ? { body, etag: l.etag.replace(/"$/, '-gz"') } : null;
    }
  }
  return l.gzip;
}

function typeOf(path: string): string {
  const ext = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}

export function plain(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', ...extra },
  });
}

/** The answer for the file at `path` (`isIndex`: the admin's page, never cached, framed only by itself). */
export function respond(request: Request, path: string, l: Loaded, isIndex: boolean): Response {
  const type = isIndex ? TYPES.html! : typeOf(path);
  const headers: Record<string, string> = {
    'content-type': type,
    'cache-control': isIndex ? 'no-cache' : HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
  };
  if (isIndex) {
    headers['x-frame-options'] = 'SAMEORIGIN';
    headers['content-security-policy'] = "frame-ancestors 'self'";
    headers['referrer-policy'] = 'same-origin';
  }
  const gz =
    COMPRESSIBLE.test(type) && /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '') ? gzipped(l) : null;
  if (COMPRESSIBLE.test(type)) headers.vary = 'Accept-Encoding';
  const etag = gz ? gz.etag : l.etag;
  headers.etag = etag;
  const unchanged = notModified(request, [l.etag, l.etag.replace(/"$/, '-gz"')], headers);
  if (unchanged) return unchanged;
  const body = gz ? gz.body : l.body;
  if (gz) headers['content-encoding'] = 'gzip';
  headers['content-length'] = String(body.byteLength);
  return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
}
