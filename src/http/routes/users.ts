/** Sessions over HTTP: login, logout, me, init, first-register (docs/accounts.md). */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { countUsers, login, registerFirstAdmin, type LoginResult } from '../../operations/login.ts';
import { createSession, endSession, refreshSession } from '../../auth/sessions.ts';
import { unlockEmail } from '../../auth/login-lock.ts';
import { isFullAdmin } from '../../access/key-limits.ts';
import { badRequest, forbidden, unauthorized } from '../../errors.ts';
import { presentDoc } from '../../operations/present.ts';
import { readJSON } from '../body.ts';
import { sessionClient } from '../client-ip.ts';
import { mustEnrolTwoFactor } from '../../auth/two-factor.ts';
import type { User } from '../../config/types.ts';
import { cookiesAreSecure } from '../secure-cookies.ts';
import { methods, type RouteInput } from '../handle.ts';
import { CSRF_COOKIE, SESSION_COOKIE, bearerToken, checkLoginOrigin, readCookie } from '../authenticate.ts';

function cookie(cms: CMS, name: string, value: string, maxAge: number, httpOnly: boolean): string {
  const secure = cookiesAreSecure(cms) ? '; Secure' : '';
  return `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAge}; SameSite=Lax${httpOnly ? '; HttpOnly' : ''}${secure}`;
}

export function sessionCookies(cms: CMS, token: string, csrfToken: string): string[] {
  const maxAge = cms.config.auth.tokenExpiration;
  return [cookie(cms, SESSION_COOKIE, token, maxAge, true), cookie(cms, CSRF_COOKIE, csrfToken, maxAge, false)];
}

export function clearedCookies(cms: CMS): string[] {
  return [cookie(cms, SESSION_COOKIE, '', 0, true), cookie(cms, CSRF_COOKIE, '', 0, false)];
}

export async function loginResponse(
  cms: CMS,
  result: LoginResult,
  status = 200,
  message = 'Logged in.',
  extra: Record<string, unknown> = {},
): Promise<Response> {
  // auth.requireTwoFactor: the session works only for enrolment until two-factor sign-in is on.
  const setup = (await mustEnrolTwoFactor(cms, result.user as User)) ? { twoFactorSetupRequired: true } : {};
  const body = {
    ...extra,
    ...setup,
    message,
    user: result.user,
    token: result.session.token,
    exp: Math.floor(result.session.expiresAt / 1000),
    csrfToken: result.session.csrfToken,
  };
  const headers = new Headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  for (const c of sessionCookies(cms, result.session.token, result.session.csrfToken)) headers.append('set-cookie', c);
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * A password change ends every session of the user; when users change their own password, the answer
 * carries a fresh session (cookie and token) so they stay logged in.
 */
export async function renewOwnSession(
  cms: CMS,
  input: RouteInput,
  doc: Record<string, unknown>,
  data: unknown,
): Promise<Response | null> {
  const own =
    input.params.collection === 'users' && input.credentials.user?.id === doc.id && input.credentials.via !== 'api-key';
  if (!own || typeof data !== 'object' || data === null || !('password' in data)) return null;
  const session = await createSession(cms, doc.id as number, sessionClient(cms.config, input.request));
  return loginResponse(cms, { user: doc, session }, 200, 'Updated successfully.', { doc });
}

export function userRoutes(cms: CMS) {
  return (
    new Elysia()
      .all(
        '/users/login',
        methods(
          cms,
          {
            POST: async ({ request }) => {
              checkLoginOrigin(cms, request);
              const body = (await readJSON(request)) as Record<string, unknown>;
              const client = sessionClient(cms.config, request);
              return loginResponse(
                cms,
                await login(cms, { email: body?.email, password: body?.password, code: body?.code, client }),
              );
            },
          },
          { csrf: false },
        ),
      )
      .all(
        '/users/logout',
        methods(
          cms,
          {
            POST: async ({ request }) => {
              const token = bearerToken(request) ?? readCookie(request, SESSION_COOKIE);
              if (token && !token.startsWith('cms_')) await endSession(cms, token);
              const headers = new Headers({ 'content-type': 'application/json; charset=utf-8' });
              for (const c of clearedCookies(cms)) headers.append('set-cookie', c);
              return new Response(JSON.stringify({ message: 'Logged out.' }), { status: 200, headers });
            },
            // Logging out by cookie is a cookie write: it needs the CSRF token and an own or trusted origin.
          },
          { duringTwoFactorSetup: true },
        ),
      )
      .all(
        '/users/me',
        methods(
          cms,
          {
            GET: async ({ ctx, credentials }) => {
              if (!credentials.user) return { body: { user: null, csrfToken: null } };
              const users = cms.config.collectionsBySlug.get('users')!;
              const user = await presentDoc({ ...ctx, overrideAccess: true }, users, credentials.user, 0);
              const setup = credentials.twoFactorSetupRequired ? { twoFactorSetupRequired: true } : {};
              // Payload's shape: the session's token and end (an API key is never echoed: both null), the collection.
              const session = credentials.via === 'api-key' ? null : credentials;
              const exp = session?.expiresAt !== undefined ? Math.floor(session.expiresAt / 1000) : null;
              const body = {
                user,
                token: session?.token ?? null,
                exp,
                collection: 'users',
                csrfToken: credentials.csrfToken ?? null,
                ...setup,
              };
              return { body, headers: { 'cache-control': 'no-store' } };
            },
          },
          { duringTwoFactorSetup: true },
        ),
      )
      // `initialized` is Payload's name for the same answer (docs/payload-compatibility.md).
      .all(
        '/users/init',
        methods(cms, {
          GET: async () => {
            const hasUsers = (await countUsers(cms)) > 0;
            return { body: { hasUsers, initialized: hasUsers } };
          },
        }),
      )
      .all(
        '/users/refresh-token',
        methods(cms, {
          POST: async ({ ctx, credentials }) => {
            // Sessions only: an API key does not expire with a session and has nothing to refresh.
            if (!credentials.user || !credentials.token || credentials.via === 'api-key')
              throw unauthorized('A valid session is required to refresh it.');
            const refreshed = await refreshSession(cms, credentials.token);
            if (!refreshed) throw unauthorized('A valid session is required to refresh it.');
            const users = cms.config.collectionsBySlug.get('users')!;
            const user = await presentDoc({ ...ctx, overrideAccess: true }, users, credentials.user, 0);
            const body = {
              message: 'Token refresh successful.',
              user,
              refreshedToken: credentials.token,
              exp: Math.floor(refreshed.expiresAt / 1000),
            };
            const headers = new Headers({
              'content-type': 'application/json; charset=utf-8',
              'cache-control': 'no-store',
            });
            if (credentials.via === 'cookie')
              for (const c of sessionCookies(cms, credentials.token, credentials.csrfToken!))
                headers.append('set-cookie', c);
            return new Response(JSON.stringify(body), { status: 200, headers });
          },
        }),
      )
      .all(
        '/users/unlock',
        methods(cms, {
          POST: async ({ request, credentials }) => {
            if (!credentials.user) throw unauthorized();
            if (!isFullAdmin(credentials.user, credentials.scopes)) throw forbidden('Only admins can unlock a login.');
            const body = (await readJSON(request)) as Record<string, unknown>;
            if (typeof body?.email !== 'string' || !body.email.trim())
              throw badRequest('An email is required.', 'email');
            await unlockEmail(cms, body.email.trim().toLowerCase());
            return { body: { message: 'Success' } };
          },
        }),
      )
      .all(
        '/users/first-register',
        methods(
          cms,
          {
            POST: async ({ request }) => {
              checkLoginOrigin(cms, request);
              const body = (await readJSON(request)) as Record<string, unknown>;
              return loginResponse(
                cms,
                await registerFirstAdmin(cms, body ?? {}, sessionClient(cms.config, request)),
                200,
                'First admin created.',
              );
            },
          },
          { csrf: false },
        ),
      )
  );
}
