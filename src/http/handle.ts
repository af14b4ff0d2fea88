/**
 * The one wrapper every route runs in: authenticate, check CSRF, build the operation context,
 * run the route, and answer in the contract's shape (errors included) with CORS headers.
 */
import type { CMS } from '../cms.ts';
import { createContext, type OperationContext } from '../operation-context.ts';
import { documentBudget } from '../operations/steps/document-budget.ts';
import { localeOptions, parseQuery } from '../query/request-options.ts';
import { preauthorizeWrite, type WriteTarget } from '../operations/steps/preauthorize.ts';
import { anonymous, checkCsrf, credentialsOf, sendsNoCredentials, type Credentials } from './authenticate.ts';
import { applyCors, dependsOnOrigin } from './cors.ts';
import { releaseBody } from './body.ts';
import { errorResponse, json, methodNotAllowed } from './errors.ts';
import { rememberRoute } from './observe-request.ts';
import { methodOverride, readOverrideBody, refuseOverride } from './method-override.ts';
import { clientIP, ownOrigin, settlePeerAddress } from './client-ip.ts';
import { forbidden } from '../errors.ts';

export type RouteInput = {
  cms: CMS;
  ctx: OperationContext;
  request: Request;
  query: Record<string, unknown>;
  params: Record<string, string>;
  credentials: Credentials;
  /** A method-override read's unsaved values (`data`), to merge over the document read (src/http/method-override.ts). */
  unsaved?: unknown;
};
export type RouteResult = Response | { status?: number; body: unknown; headers?: Record<string, string> };
export type Route = (input: RouteInput) => Promise<RouteResult> | RouteResult;
export type Options = {
  csrf?: boolean;
  /** What a request of this method would write, so a refused caller is answered before its body is read. */
  writes?: (params: Record<string, string>, method: string) => WriteTarget | null;
  /** Set by `methods()` for a POST that is a read: its query comes from the body, and it writes nothing. */
  overrideRead?: boolean;
  /** Answers sessions that must set up two-factor sign-in first (auth.requireTwoFactor). */
  duringTwoFactorSetup?: boolean;
};

/** The operation context of an HTTP request: its caller, and where it came from (the audit log's `via` and `ip`). */
export function requestContext(
  cms: CMS,
  request: Request,
  credentials: Credentials,
  overrides: Partial<OperationContext> = {},
): OperationContext {
  const ctx = createContext(cms, {
    user: credentials.user,
    scopes: credentials.scopes ?? null,
    apiKey: credentials.apiKey ?? null,
    req: request,
    via: 'rest',
    documents: documentBudget(cms.config.maxPopulatedDocuments),
    ...overrides,
  });
  // Worked out when asked (links in mails, written entries): parsing the URL or the forwarding chain on every read would cost for nothing.
  Object.defineProperty(ctx, 'origin', { enumerable: true, get: () => ownOrigin(cms.config, request) });
  Object.defineProperty(ctx, 'ip', { enumerable: true, get: () => clientIP(cms.config, request) });
  return ctx;
}

function toResponse(result: RouteResult): Response {
  return result instanceof Response ? result : json(result.body, result.status ?? 200, result.headers);
}

export function withCors(cms: CMS, request: Request, response: Response): Response {
  const origin = request.headers.get('origin');
  // Most answers have nothing to add: their headers are then not even looked at.
  if (origin !== null || dependsOnOrigin(cms.config)) applyCors(cms.config, origin, response.headers);
  return response;
}

export async function handle(
  cms: CMS,
  request: Request,
  params: Record<string, string>,
  route: Route,
  options: Options = {},
): Promise<Response> {
  let response: Response;
  // Before the first wait of anything that may write (a login among them), while the connection is surely open.
  if (request.method !== 'GET' && request.method !== 'HEAD') settlePeerAddress(request);
  try {
    const url = request.url;
    const q = url.indexOf('?');
    let query = q === -1 ? {} : parseQuery(url.slice(q + 1));
    // An anonymous read goes on without waiting for a promise.
    const credentials = sendsNoCredentials(request) ? anonymous() : await credentialsOf(cms, request);
    // A read needs no CSRF token and no write pre-check, whatever its verb.
    const read = options.overrideRead ? await readOverrideBody(request) : null;
    if (read) query = { ...query, ...read.query };
    else if (options.csrf !== false) checkCsrf(cms, request, credentials);
    if (credentials.twoFactorSetupRequired && !options.duringTwoFactorSetup) {
      throw forbidden('Set up two-factor sign-in first (POST /users/totp/setup, then /users/totp/enable).');
    }
    const ctx = requestContext(cms, request, credentials, localeOptions(query, cms.config));
    const target = read ? null : options.writes?.(params, request.method);
    if (target) await preauthorizeWrite(ctx, target);
    response = toResponse(await route({ cms, ctx, request, query, params, credentials, unsaved: read?.unsaved }));
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
  return ({
    request,
    params,
    route: pattern,
  }: {
    request: Request;
    params: Record<string, string>;
    route?: string;
  }) => {
    if (pattern) rememberRoute(request, pattern);
    // A POST that asks to be read as a GET is dispatched to GET and only to GET (src/http/method-override.ts).
    const override = methodOverride(request);
    if (override === 'invalid') return handle(cms, request, params ?? {}, refuseOverride, { csrf: false });
    const route =
      override === 'read' ? table.GET : (table[request.method] ?? (request.method === 'HEAD' ? table.GET : undefined));
    if (!route) return withCors(cms, request, methodNotAllowed(allowed));
    return handle(
      cms,
      request,
      params ?? {},
      route,
      override === 'read' ? { ...options, overrideRead: true } : options,
    );
  };
}
