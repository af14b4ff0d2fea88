/**
 * Payload's method-override read (docs/payload-compatibility.md): a `POST` carrying `X-Payload-HTTP-Method-Override: GET`
 * (or `X-HTTP-Method-Override: GET`) is the path's GET, with its query in the body, for queries too long
 * for a URL and for live preview's merge. It is dispatched to the GET route and never to a write route, so
 * nothing on this path can save; being a read, it needs no CSRF token. Any other override value is a 400:
 * a client that asked for another verb must not get a write it did not mean.
 */
import { badRequest } from '../errors.ts';
import { parseQuery } from '../query/request-options.ts';
import { readJSON, readText } from './body.ts';

export const OVERRIDE_HEADERS = ['x-payload-http-method-override', 'x-http-method-override'];

/** 'read' when a POST asks to be a GET, 'invalid' for any other override, null for an ordinary request. */
export function methodOverride(request: Request): 'read' | 'invalid' | null {
  if (request.method !== 'POST') return null;
  for (const name of OVERRIDE_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) return value.trim().toUpperCase() === 'GET' ? 'read' : 'invalid';
  }
  return null;
}

export const refuseOverride = () => {
  throw badRequest('Only GET can be asked for with a method-override header.');
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The body of an override read: a qs-form (`application/x-www-form-urlencoded`) or JSON query. `data`
 * (live preview's unsaved values) is kept apart; the rest is merged over the URL's query by the caller.
 */
export async function readOverrideBody(
  request: Request,
): Promise<{ query: Record<string, unknown>; unsaved?: unknown }> {
  const type = request.headers.get('content-type') ?? '';
  const body = type.includes('application/x-www-form-urlencoded')
    ? parseQuery(await readText(request))
    : await readJSON(request);
  if (!isObject(body)) throw badRequest('The body of a method-override read must be an object.');
  const { data, ...rest } = body;
  // JSON gives numbers and booleans (`depth: 2`, `draft: true`) where a query string gives text.
  const query = Object.fromEntries(
    Object.entries(rest).map(([k, v]) => [k, typeof v === 'number' || typeof v === 'boolean' ? String(v) : v]),
  );
  return { query, unsaved: data };
}
