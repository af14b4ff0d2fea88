/**
 * The one wrapper every route runs in: authenticate, check CSRF, build the operation context,
 * run the route, and answer in the contract's shape (errors included) with CORS headers.
 */
import type { CMS } from '../cms.ts';
import { createContext, type OperationContext } from '../operations/context.ts';
import { localeOptions, parseQuery } from '../query/request-options.ts';
import { preauthorizeWrite, type WriteTarget } from '../operations/preauthorize.ts';
import { authenticate, checkCsrf, type Credentials } from './authenticate.ts';
import { corsHeaders } from './cors.ts';
import { releaseBody } from './body.ts';
import { errorResponse, json, methodNotAllowed } from './errors.ts';
import { rememberRoute } from './observe-request.ts';

export type RouteInput = {
  cms: CMS;
  ctx: OperationContext;
  request: Request;
  query: Record<string, unknown>;
  params: Record<string, string>;
  credentials: Credentials;
};
export type RouteResult = Response | { status?: number; body: unknown; headers?: Record<string, string> };
export type Route = (input: RouteInput) => Promise<RouteResult> | RouteResult;
export type Options = {
  csrf?: boolean;
  /** What a request of this method would write, so a refused caller is answered before its body is read. */
  writes?: (params: Record<string, string>, method: string) => WriteTarget | null;
};

function toResponse(result: RouteResult): Response {
  return result instanceof Response ? result : json(result.body, result.status ?? 200, result.headers);
}

function withCors(cms: CMS, request: Request, response: Response): Response {
  const headers = corsHeaders(cms.config, request.headers.get('origin'));
  if (headers) for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
  return response;
}

export async function handle(cms: CMS, request: Request, params: Record<string, string>, route: Route, options: Options = {}): Promise<Response> {
  let response: Response;
  try {
    const url = request.url;
    const q = url.indexOf('?');
    const query = q === -1 ? {} : parseQuery(url.slice(q + 1));
    const credentials = await authenticate(cms, request);
    if (options.csrf !== false) checkCsrf(cms, request, credentials);
    const ctx = createContext(cms, { user: credentials.user, scopes: credentials.scopes ?? null, req: request, ...localeOptions(query, cms.config) });
    const target = options.writes?.(params, request.method);
    if (target) await preauthorizeWrite(ctx, target);
    response = toResponse(await route({ cms, ctx, request, query, params, credentials }));
  } catch (error) {
    response = errorResponse(cms, error);
  } finally {
    releaseBody(request);
  }
  return withCors(cms, request, response);
}

/** A path with a handler per method; any other method is a 405 naming the allowed ones. */
export function methods(cms: CMS, table: Partial<Record<string, Route>>, options: Options = {}) {
  const allowed = Object.keys(table);
  return ({ request, params, route: pattern }: { request: Request; params: Record<string, string>; route?: string }) => {
    if (pattern) rememberRoute(request, pattern);
    const route = table[request.method] ?? (request.method === 'HEAD' ? table.GET : undefined);
    if (!route) return withCors(cms, request, methodNotAllowed(allowed));
    return handle(cms, request, params ?? {}, route, options);
  };
}
