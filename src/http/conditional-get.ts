/**
 * The one If-None-Match check of every ETag answer (kept API answers, media files, the admin's files):
 * RFC 9110, section 13.1.2. `*` matches any current answer; otherwise a listed tag matches under the weak
 * comparison, where `W/"x"` equals `"x"`.
 */

export function etagMatches(header: string | null, ...etags: string[]): boolean {
  if (!header) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  const current = etags.map(strip);
  return header.split(',').some((tag) => tag.trim() === '*' || current.includes(strip(tag)));
}

/** A 304 with `headers` when the request already holds one of `etags`, else null. */
export function notModified(request: Request, etags: string[], headers: Record<string, string>): Response | null {
  return etagMatches(request.headers.get('if-none-match'), ...etags)
    ? new Response(null, { status: 304, headers })
    : null;
}
