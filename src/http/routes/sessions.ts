/** `GET /users/sessions`, `DELETE /users/sessions[/:id]` (docs/accounts.md): the caller's sessions, or with `?user=` (admins) another's. */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { listAccountSessions } from '../../operations/account/sessions-list.ts';
import { endAccountSession, endAccountSessions } from '../../operations/account/sessions-end.ts';
import { methods } from '../handle.ts';

export function sessionRoutes(cms: CMS) {
  return new RouteList()
    .all(
      '/users/sessions',
      methods(cms, {
        GET: async ({ ctx, credentials, query }) => ({
          body: { docs: await listAccountSessions(ctx, { session: credentials, user: query.user }) },
          headers: { 'cache-control': 'no-store' },
        }),
        // Signs out everywhere else: every session of the user but the caller's own.
        DELETE: async ({ ctx, credentials, query }) => {
          const { ended, own } = await endAccountSessions(ctx, { session: credentials, user: query.user });
          return {
            body: { ended, message: own ? 'Signed out of every other session.' : 'Signed out of every session.' },
          };
        },
      }),
    )
    .all(
      '/users/sessions/:id',
      methods(cms, {
        DELETE: async ({ ctx, credentials, query, params }) => {
          await endAccountSession(ctx, { session: credentials, user: query.user, id: params.id });
          return { body: { message: 'Session ended.' } };
        },
      }),
    );
}
