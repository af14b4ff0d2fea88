/**
 * Who is asking: a session (cookie `cms-session` or `Authorization: Bearer <token>`), an API key
 * (`Bearer cms_…`), or nobody. Cookie-authenticated writes must carry the CSRF token and come from
 * the API's own origin or a trusted one (docs/accounts.md).
 */
import { timingSafeEqual } from 'node:crypto';
import { forbidden } from '../errors.ts';
import type { User } from '../config/types.ts';
import type { CMS } from '../cms.ts';
import { findSession, hashToken } from '../auth/sessions.ts';
import { keptSessionLookup } from '../auth/kept-credentials.ts';
import { requestReading, type Reading } from '../cache/change-counters.ts';
import { loadUser } from '../auth/load-user.ts';
import { mustEnrolTwoFactor } from '../auth/two-factor.ts';
import { isApiKey, resolveApiKey } from '../auth/api-keys.ts';
import { normalizeOrigin } from '../config/origin.ts';
import { isCronSecret } from '../jobs/cron-secret.ts';
import { ownOrigin } from './client-ip.ts';

export const SESSION_COOKIE = 'cms-session';
export const CSRF_COOKIE = 'cms-csrf';
export const CSRF_HEADER = 'x-csrf-token';
const UNSAFE = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);

export type Credentials = {
  user: User | null;
  via: 'cookie' | 'bearer' | 'api-key' | null;
  token?: string;
  csrfToken?: string;
  scopes?: string[] | null;
  /** The API key's id, when one was sent (the audit log names it). */
  apiKey?: number;
  /** The session's public id (sessions list: `current`). */
  sessionId?: string;
  /** When the session or API key ends (ms); absent for a key without an end. */
  expiresAt?: number;
  /** The user's role requires two-factor sign-in and it is not set up: only enrolment routes answer. */
  twoFactorSetupRequired?: boolean;
};

/** A cookie's value; one that is not valid percent-encoding (`cms-session=%`) counts as no cookie. */
export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return decodeCookieValue(part.slice(i + 1).trim());
  }
  return null;
}

function decodeCookieValue(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * The token of `Authorization: Bearer <token>`; Payload's spellings `JWT <token>` and `users API-Key <key>`
 * mean the same (docs/payload-compatibility.md), so its clients authenticate unchanged.
 */
export function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization');
  const match = header ? /^(?:Bearer|JWT|users\s+API-Key)\s+(.+)$/i.exec(header.trim()) : null;
  return match ? match[1].trim() : null;
}

const known = new WeakMap<Request, Promise<Credentials>>();

/** Neither header a credential comes in: the caller is anonymous, with nothing to look up. */
export const sendsNoCredentials = (request: Request) =>
  !request.headers.has('authorization') && !request.headers.has('cookie');

/** What `authenticate` answers for a caller who sent no credential. */
export const anonymous = (): Credentials => ({ user: null, via: null });

/**
 * `authenticate`, once per request: the response cache asks before routing, and the route's wrapper again.
 * A kept session is checked against an exact reading of the change counters (a session ended on another
 * instance a moment ago is ended here too), which the response cache then uses as the request's reading
 * (src/cache/change-counters.ts).
 */
export function credentialsOf(cms: CMS, request: Request): Promise<Credentials> {
  if (sendsNoCredentials(request)) return Promise.resolve(anonymous());
  let credentials = known.get(request);
  if (!credentials)
    known.set(
      request,
      (credentials = authenticate(cms, request, () => requestReading(cms.store, request, { exact: true }))),
    );
  return credentials;
}

/**
 * `reading`: how a kept session is checked; a fresh reading unless the caller knows this runs before the
 * request writes anything (getCMSUser may be called from a hook, after a write of the same request).
 */
export async function authenticate(
  cms: CMS,
  request: Request,
  reading: () => Promise<Reading> = () => cms.store.changeCounters({ exact: true }),
): Promise<Credentials> {
  const bearer = bearerToken(request);
  if (bearer) {
    if (isApiKey(bearer)) {
      // A cron secret that happens to look like a key names no user; /jobs/run checks it itself.
      if (isCronSecret(cms, bearer)) return { user: null, via: null };
      const { user, scopes, keyId, expiresAt } = await resolveApiKey(cms, bearer);
      return { user, via: 'api-key', scopes, apiKey: keyId, ...(expiresAt === null ? {} : { expiresAt }) };
    }
    const credentials = await sessionCredentials(cms, bearer, 'bearer', reading);
    if (credentials) return credentials;
  }
  const cookie = readCookie(request, SESSION_COOKIE);
  if (cookie) {
    const credentials = await sessionCredentials(cms, cookie, 'cookie', reading);
    if (credentials) return credentials;
  }
  return anonymous();
}

async function sessionCredentials(
  cms: CMS,
  token: string,
  via: 'bearer' | 'cookie',
  reading: () => Promise<Reading>,
): Promise<Credentials | null> {
  const found = await keptSessionLookup(
    cms,
    hashToken(token),
    async () => {
      const session = await findSession(cms, token);
      const user = session ? await loadUser(cms, session.userId) : null;
      return user ? { session: session!, user, twoFactorSetupRequired: await mustEnrolTwoFactor(cms, user) } : null;
    },
    reading(),
  );
  if (!found) return null;
  const credentials: Credentials = {
    user: found.user,
    via,
    token,
    csrfToken: found.session.csrfToken,
    sessionId: found.session.id,
    expiresAt: found.session.expiresAt,
  };
  if (found.twoFactorSetupRequired) credentials.twoFactorSetupRequired = true;
  return credentials;
}

const sameToken = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function requestOrigin(request: Request): string | null {
  const origin = request.headers.get('origin');
  if (origin && origin !== 'null') return normalizeOrigin(origin);
  const referer = request.headers.get('referer');
  if (referer) {
    try {
      return new URL(referer).origin;
    } catch {
      return null;
    }
  }
  return null;
}

/** Cookie sessions writing anything need the CSRF header and an allowed origin; else 403. */
export function checkCsrf(cms: CMS, request: Request, credentials: Credentials): void {
  if (credentials.via !== 'cookie' || !UNSAFE.has(request.method)) return;
  const sent = request.headers.get(CSRF_HEADER);
  if (!sent || !credentials.csrfToken || !sameToken(sent, credentials.csrfToken))
    throw forbidden('Missing or invalid CSRF token.');
  const origin = requestOrigin(request);
  if (!origin || (origin !== ownOrigin(cms.config, request) && !cms.config.auth.trustedOrigins.includes(origin))) {
    throw forbidden('This origin is not allowed to make cookie-authenticated requests.');
  }
}

/**
 * A login sets a session cookie, so a page elsewhere must not log a browser in (login CSRF): a login
 * carrying an Origin must come from the own origin, a trusted one or a `cors` one. Scripts and servers
 * send no Origin and are unaffected.
 */
export function checkLoginOrigin(cms: CMS, request: Request): void {
  const header = request.headers.get('origin');
  if (header === null) return;
  const origin = normalizeOrigin(header);
  const { cors, auth } = cms.config;
  if (
    origin === ownOrigin(cms.config, request) ||
    auth.trustedOrigins.includes(origin) ||
    cors === '*' ||
    cors.includes(origin)
  )
    return;
  throw forbidden('This origin is not allowed to log in.');
}
