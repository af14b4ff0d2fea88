/** `GET /users/sessions`, `DELETE /users/sessions[/:id]` (docs/accounts.md): the caller's sessions, or with `?user=` (admins) another's. */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import { endOtherSessions, endSessionById, listSessions } from '../../auth/sessions.ts';
import { methods } from '../handle.ts';
import { accountTarget } from '../account-target.ts';

export function sessionRoutes(cms: CMS) {
  return new Elysia()
    .all(
      '/users/sessions',
      methods(cms, {
        GET: async (input) => {
          const { user, own } = await accountTarget(input);
          return {
            body: { docs: await listSessions(cms, user.id, own ? (input.credentials.sessionId ?? null) : null) },
            headers: { 'cache-control': 'no-store' },
          };
        },
        // Signs out everywhere else: every session of the user but the caller's own.
        DELETE: async (input) => {
          const { user, own } = await accountTarget(input);
          const ended = await endOtherSessions(cms, user.id, own ? (input.credentials.sessionId ?? null) : null);
          return {
            body: { ended, message: own ? 'Signed out of every other session.' : 'Signed out of every session.' },
          };
        },
      }),
    )
    .all(
      '/users/sessions/:id',
      methods(cms, {
        DELETE: async (input) => {
          const { user } = await accountTarget(input);
          await endSessionById(cms, user.id, input.params.id);
          return { body: { message: 'Session ended.' } };
        },
      }),
    );
}
