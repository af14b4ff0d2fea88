/** Forgot and reset password, and admin-made reset links (docs/accounts.md). */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { createResetLink, forgotPassword, FORGOT_ANSWER } from '../../auth/password-reset.ts';
import { resetPassword } from '../../operations/reset-password.ts';
import { parseId } from '../../operations/steps/entities.ts';
import { readJSON } from '../body.ts';
import { clientIP, ownOrigin, sessionClient } from '../client-ip.ts';
import { methods } from '../handle.ts';
import { checkLoginOrigin } from '../authenticate.ts';
import { loginResponse } from './users.ts';

export function passwordResetRoutes(cms: CMS) {
  return new RouteList()
    .all(
      '/users/forgot-password',
      methods(
        cms,
        {
          POST: async ({ request }) => {
            const body = (await readJSON(request)) as Record<string, unknown> | null;
            await forgotPassword(cms, {
              email: body?.email,
              ip: clientIP(cms.config, request),
              origin: ownOrigin(cms.config, request),
            });
            return { body: { message: FORGOT_ANSWER } };
          },
        },
        { csrf: false },
      ),
    )
    .all(
      '/users/reset-password',
      methods(
        cms,
        {
          POST: async ({ request }) => {
            // It signs in, like a login: a page elsewhere must not sign a browser in with its own link.
            checkLoginOrigin(cms, request);
            const body = (await readJSON(request)) as Record<string, unknown> | null;
            const result = await resetPassword(cms, {
              token: body?.token,
              password: body?.password,
              code: body?.code,
              client: sessionClient(cms.config, request),
            });
            return loginResponse(cms, result, 200, 'Your password is set.');
          },
        },
        { csrf: false },
      ),
    )
    .all(
      '/users/:id/reset-link',
      methods(cms, {
        POST: async ({ ctx, params }) => ({ body: await createResetLink(ctx, parseId(params.id)) }),
      }),
    );
}
