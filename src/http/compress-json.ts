/**
 * JSON answers over 1 KB travel compressed when the client says it accepts that: Brotli when offered (a
 * fast quality, as the answer is made per request), else gzip. The response cache keeps the plain bytes, so
 * one kept answer serves every client; compressing costs a fraction of a millisecond for a typical list.
 * A compressed answer's ETag becomes weak (its bytes differ from the plain one's), which the If-None-Match
 * check compares weakly anyway, so revalidation keeps working. Everything else (files, the admin, event
 * streams, small answers) goes as it is.
 */
import type Zlib from 'node:zlib';

/** node:zlib (and the stream modules it pulls in) loads with the first Brotli answer, not at start. */
let zlib: typeof Zlib | null = null;

const MIN_BYTES = 1024;

function chosenEncoding(request: Request): 'br' | 'gzip' | null {
  const header = request.headers.get('accept-encoding');
  if (!header) return null;
  const accepted = header.toLowerCase();
  const offered = (name: string) =>
    accepted.split(',').some((part) => {
      const [token, ...params] = part.trim().split(';');
      if (token!.trim() !== name) return false;
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return !q || Number(q.slice(2)) > 0;
    });
  return offered('br') ? 'br' : offered('gzip') ? 'gzip' : null;
}

/** Where an answer's compressed bytes are kept for the next request of the same answer (a kept answer's). */
export type PackedStore = {
  get(encoding: string): Uint8Array<ArrayBuffer> | undefined;
  keep(encoding: string, bytes: Uint8Array<ArrayBuffer>): void;
};

const stores = new WeakMap<Response, PackedStore>();

/**
 * The answer is made of kept bytes: compressing them once serves every later client that accepts the same
 * encoding (Brotli took two to three times what the rest of a kept answer costs).
 */
export function packOnce(response: Response, store: PackedStore): Response {
  stores.set(response, store);
  return response;
}

/** Whether the client takes a compressed answer at all: only then is `compressJSON` worth a call. */
export const takesCompressed = (request: Request) => request.method !== 'HEAD' && chosenEncoding(request) !== null;

/**
 * What the answer's headers and the request's Accept-Encoding say is looked at before its body: reading
 * `response.body` turns the bytes of every answer into a stream, which cost each request (a kept answer's
 * most of all) whether it was compressed or not.
 */
export async function compressJSON(request: Request, response: Response): Promise<Response> {
  if (request.method === 'HEAD') return response;
  const encoding = chosenEncoding(request);
  if (!encoding) return response;
  if (response.headers.has('content-encoding')) return response;
  if (!(response.headers.get('content-type') ?? '').includes('application/json')) return response;
  const length = Number(response.headers.get('content-length') ?? Number.NaN);
  if (length < MIN_BYTES || !response.body) return response;
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  headers.append('vary', 'Accept-Encoding');
  if (body.byteLength < MIN_BYTES) return new Response(body, { status: response.status, headers });
  const store = stores.get(response);
  let packed = store?.get(encoding);
  if (!packed) {
    packed = (
      encoding === 'br'
        ? (zlib ??= require('node:zlib') as typeof Zlib).brotliCompressSync(body, {
            params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
          })
        : Bun.gzipSync(body, { level: 6 })
    ) as Uint8Array<ArrayBuffer>;
    store?.keep(encoding, packed);
  }
  headers.set('content-encoding', encoding);
  headers.set('content-length', String(packed.byteLength));
  const etag = headers.get('etag');
  if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`);
  return new Response(packed, { status: response.status, headers });
}
