/** Sessions over HTTP: login, logout, me, init, first-register (docs/accounts.md). */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { countUsers, login, type LoginResult } from '../../operations/login.ts';
import { registerFirstAdmin } from '../../operations/account/first-admin.ts';
import { me } from '../../operations/account/me.ts';
import { logout } from '../../operations/account/logout.ts';
import { refreshToken } from '../../operations/account/refresh.ts';
import { authorizeUnlock, unlockLogin } from '../../operations/account/unlock.ts';
import { createSession } from '../../auth/sessions.ts';
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
    new RouteList()
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
            POST: async ({ ctx, request }) => {
              await logout(ctx, { token: bearerToken(request) ?? readCookie(request, SESSION_COOKIE) });
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
              const answer = await me(ctx, { session: credentials });
              if (!answer.user) return { body: { user: null, csrfToken: null } };
              const setup = credentials.twoFactorSetupRequired ? { twoFactorSetupRequired: true } : {};
              // Payload's shape: the session's token and end (both null for an API key), the collection.
              const { user, token, exp, csrfToken } = answer;
              return {
                body: { user, token, exp, collection: 'users', csrfToken, ...setup },
                headers: { 'cache-control': 'no-store' },
              };
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
            const refreshed = await refreshToken(ctx, { session: credentials });
            const body = { message: 'Token refresh successful.', ...refreshed };
            const headers = new Headers({
              'content-type': 'application/json; charset=utf-8',
              'cache-control': 'no-store',
            });
            if (credentials.via === 'cookie')
              for (const c of sessionCookies(cms, credentials.token!, credentials.csrfToken!))
                headers.append('set-cookie', c);
            return new Response(JSON.stringify(body), { status: 200, headers });
          },
        }),
      )
      .all(
        '/users/unlock',
        methods(cms, {
          POST: async ({ ctx, request }) => {
            authorizeUnlock(ctx); // before the body is read
            const body = (await readJSON(request)) as Record<string, unknown>;
            await unlockLogin(ctx, { email: body?.email });
            return { body: { message: 'Success' } };
          },
        }),
      )
      .all(
        '/users/first-register',
        methods(
          cms,
          {
            POST: async ({ ctx, request }) => {
              checkLoginOrigin(cms, request);
              const body = (await readJSON(request)) as Record<string, unknown>;
              return loginResponse(
                cms,
                await registerFirstAdmin(ctx, { data: body ?? {}, client: sessionClient(cms.config, request) }),
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
