/** Sign-in and account routes of `users`: docs/accounts.md, and docs/payload-compatibility.md for refresh, unlock and init. */
import { message, ref, publicSecurity, writeSecurity } from './components.ts';
import { json, operation, pathParameter, type Paths } from './operation.ts';

const tags = ['users: sign-in and account'];
const string = { type: 'string' };
const object = (required: string[], properties: Record<string, unknown>) => ({ type: 'object', required, properties });
const loginAnswer = json(ref('LoginResult'), 'Signed in: sets the `cms-session` and `cms-csrf` cookies');
/** `?user=<id>`: admins act on another user's account. */
const userQuery = {
  name: 'user',
  in: 'query',
  required: false,
  schema: { type: 'integer' },
  description: 'Admins: another user.',
};

export function accountPaths(): Paths {
  return {
    '/users/login': {
      post: operation('post', '/users/login', {
        summary: 'Log in',
        tags,
        body: ref('LoginRequest'),
        security: publicSecurity,
        ok: { 200: loginAnswer },
        errors: [400, 401, 403, 429],
      }),
    },
    '/users/logout': {
      post: operation('post', '/users/logout', {
        summary: 'End the session',
        tags,
        security: [{}, ...writeSecurity],
        ok: { 200: json(message) },
        errors: [403],
      }),
    },
    '/users/me': {
      get: operation('get', '/users/me', {
        summary: 'The current session',
        tags,
        ok: {
          200: json(
            object(['user', 'csrfToken'], {
              user: { anyOf: [ref('Users'), { type: 'null' }] },
              token: { type: ['string', 'null'] },
              exp: { type: ['integer', 'null'] },
              collection: { const: 'users' },
              csrfToken: { type: ['string', 'null'] },
              twoFactorSetupRequired: { type: 'boolean' },
            }),
          ),
        },
      }),
    },
    '/users/init': {
      get: operation('get', '/users/init', {
        summary: 'Whether any user exists',
        tags,
        security: publicSecurity,
        ok: {
          200: json(
            object(['hasUsers', 'initialized'], { hasUsers: { type: 'boolean' }, initialized: { type: 'boolean' } }),
          ),
        },
      }),
    },
    '/users/first-register': {
      post: operation('post', '/users/first-register', {
        summary: 'Create the first admin (only while no user exists)',
        tags,
        security: publicSecurity,
        body: object(['email', 'password'], {
          email: { type: 'string', format: 'email' },
          password: { type: 'string', minLength: 8 },
          name: string,
        }),
        ok: { 200: loginAnswer },
        errors: [400, 403],
      }),
    },
    '/users/refresh-token': {
      post: operation('post', '/users/refresh-token', {
        summary: 'Extend the session',
        tags,
        ok: {
          200: json(
            object(['user', 'refreshedToken', 'exp'], {
              message: string,
              user: ref('Users'),
              refreshedToken: string,
              exp: { type: 'integer' },
            }),
          ),
        },
        errors: [401, 403],
      }),
    },
    '/users/unlock': {
      post: operation('post', '/users/unlock', {
        summary: 'Lift the login lock of an email (admins)',
        tags,
        body: object(['email'], { email: string }),
        ok: { 200: json(message) },
        errors: [400, 401, 403],
      }),
    },
    '/users/forgot-password': {
      post: operation('post', '/users/forgot-password', {
        summary: 'Send a password reset link (same answer whether or not the email exists)',
        tags,
        security: publicSecurity,
        body: object(['email'], { email: string }),
        ok: { 200: json(message) },
        errors: [400, 429],
      }),
    },
    '/users/reset-password': {
      post: operation('post', '/users/reset-password', {
        summary: 'Set a password with a reset token, ending every session, and sign in',
        tags,
        security: publicSecurity,
        body: object(['token', 'password'], {
          token: string,
          password: { type: 'string', minLength: 8 },
          code: string,
        }),
        ok: { 200: loginAnswer },
        errors: [400, 401, 403, 429],
      }),
    },
    '/users/{id}/reset-link': {
      post: operation('post', '/users/{id}/reset-link', {
        summary: 'A fresh reset link for a user (admins)',
        tags,
        parameters: [pathParameter('id', { type: 'integer', minimum: 1 })],
        ok: { 200: json(object(['url', 'expiresAt'], { url: string, expiresAt: string })) },
        errors: [400, 401, 403, 404],
      }),
    },
    '/users/sessions': {
      get: operation('get', '/users/sessions', {
        summary: "The caller's sessions",
        tags,
        parameters: [userQuery],
        ok: { 200: json(object(['docs'], { docs: { type: 'array', items: ref('Session') } })) },
        errors: [401, 403, 404],
      }),
      delete: operation('delete', '/users/sessions', {
        summary: 'End every other session',
        tags,
        parameters: [userQuery],
        ok: { 200: json(object(['ended', 'message'], { ended: { type: 'integer' }, message: string })) },
        errors: [401, 403, 404],
      }),
    },
    '/users/sessions/{id}': {
      delete: operation('delete', '/users/sessions/{id}', {
        summary: 'End one session',
        tags,
        parameters: [pathParameter('id'), userQuery],
        ok: { 200: json(message) },
        errors: [401, 403, 404],
      }),
    },
    '/users/totp': {
      get: operation('get', '/users/totp', {
        summary: 'Whether two-factor sign-in is on',
        tags,
        parameters: [userQuery],
        ok: { 200: json(object(['enabled'], { enabled: { type: 'boolean' } })) },
        errors: [401, 403, 404],
      }),
    },
    '/users/totp/setup': {
      post: operation('post', '/users/totp/setup', {
        summary: 'Start two-factor setup',
        tags,
        ok: { 200: json(object(['secret', 'otpauthUrl'], { secret: string, otpauthUrl: string, message: string })) },
        errors: [400, 401, 403],
      }),
    },
    '/users/totp/enable': {
      post: operation('post', '/users/totp/enable', {
        summary: 'Turn two-factor sign-in on with a code; answers the recovery codes once',
        tags,
        body: object(['code'], { code: string }),
        ok: {
          200: json(
            object(['recoveryCodes', 'message'], { recoveryCodes: { type: 'array', items: string }, message: string }),
          ),
        },
        errors: [400, 401, 403],
      }),
    },
    '/users/totp/disable': {
      post: operation('post', '/users/totp/disable', {
        summary: 'Turn two-factor sign-in off (own: code or password; admins: `?user=`)',
        tags,
        parameters: [userQuery],
        body: object([], { code: string, password: string }),
        ok: { 200: json(message) },
        errors: [400, 401, 403, 404],
      }),
    },
  };
}
