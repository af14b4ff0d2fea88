/**
 * The answer to `GET /media/file/:name` (docs/media.md): the stored bytes streamed, never read whole,
 * with long-lived caching, an ETag (304 on If-None-Match), byte ranges (206, 416), and headers that stop
 * a browser from running an uploaded file as a page of this site (sandboxing CSP, nosniff, attachment
 * for anything that is not plainly an image, video, audio or PDF).
 */
import type { StoredFile } from '../config/types.ts';
import { notModified } from './conditional-get.ts';

const INLINE = /^(image\/(?!svg)|video\/|audio\/|application\/pdf$)/;

export function fileHeaders(filename: string, mimeType: string, stored: StoredFile): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': mimeType,
    'cache-control': 'public, max-age=31536000, immutable',
    'content-security-policy': "default-src 'none'; sandbox",
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'cross-origin',
    'content-disposition': `${INLINE.test(mimeType) ? 'inline' : 'attachment'}; filename="${filename}"`,
    etag: stored.etag ?? `"${stored.size.toString(36)}-${filename}"`,
  };
  if (stored.lastModified) headers['last-modified'] = new Date(stored.lastModified).toUTCString();
  if (stored.body instanceof Blob) headers['accept-ranges'] = 'bytes';
  return headers;
}

export function fileResponse(request: Request, filename: string, mimeType: string, stored: StoredFile): Response {
  const headers = fileHeaders(filename, mimeType, stored);
  const unchanged = notModified(request, [headers.etag], withoutBodyHeaders(headers));
  if (unchanged) return unchanged;

  const head = request.method === 'HEAD';
  const range =
    stored.body instanceof Blob && rangeApplies(request, headers.etag)
      ? parseRange(request.headers.get('range')!, stored.size)
      : null;
  if (range === 'unsatisfiable') {
    return new Response(null, {
      status: 416,
      headers: { ...withoutBodyHeaders(headers), 'content-range': `bytes */${stored.size}` },
    });
  }
  if (range) {
    const length = range.end - range.start + 1;
    const body = head ? null : sendable((stored.body as Blob).slice(range.start, range.end + 1));
    return new Response(body, {
      status: 206,
      headers: {
        ...headers,
        'content-range': `bytes ${range.start}-${range.end}/${stored.size}`,
        'content-length': String(length),
      },
    });
  }
  const body = head ? null : stored.body instanceof Blob ? sendable(stored.body) : stored.body;
  return new Response(body, { status: 200, headers: { ...headers, 'content-length': String(stored.size) } });
}

/**
 * A file on disk (or in memory) goes to Bun as the Blob itself: sent with sendfile, with its length.
 * An S3 file must go as a stream: `new Response(s3File)` would answer with a redirect to a presigned
 * URL. (Bun then drops Content-Length and sends the stream chunked: oven-sh/bun#10507.)
 */
function sendable(blob: Blob): Blob | ReadableStream {
  return typeof (blob as { presign?: unknown }).presign === 'function' ? blob.stream() : blob;
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  const { 'content-type': _type, 'content-disposition': _disposition, ...rest } = headers;
  return rest;
}

/** A Range header counts unless If-Range names another version of the file. */
function rangeApplies(request: Request, etag: string): boolean {
  if (!request.headers.get('range')) return false;
  const ifRange = request.headers.get('if-range');
  return !ifRange || ifRange.trim() === etag;
}

/**
 * One byte range (`bytes=a-b`, `bytes=a-`, `bytes=-n`). Several ranges, or a header that is not a byte
 * range, are ignored (the whole file is sent, as RFC 9110 allows); a range outside the file is unsatisfiable.
 */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
    if (match[2] !== '' && Number(match[2]) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}
