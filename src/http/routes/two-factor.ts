/** Two-factor sign-in over HTTP (docs/accounts.md): status, setup, enable, disable; admins read or clear another user's with `?user=`. */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { accountTarget } from '../../operations/account/account-target.ts';
import { twoFactorStatus } from '../../operations/account/two-factor-status.ts';
import { setUpTwoFactor, turnOnTwoFactor } from '../../operations/account/two-factor-setup.ts';
import { resetTwoFactor, turnOffTwoFactor } from '../../operations/account/two-factor-disable.ts';
import { readJSON } from '../body.ts';
import { methods } from '../handle.ts';

const ownOnly = { duringTwoFactorSetup: true };
const noStore = { 'cache-control': 'no-store' };

export function twoFactorRoutes(cms: CMS) {
  return new RouteList()
    .all(
      '/users/totp',
      methods(
        cms,
        {
          GET: async ({ ctx, credentials, query }) => ({
            body: await twoFactorStatus(ctx, { session: credentials, user: query.user }),
            headers: noStore,
          }),
        },
        ownOnly,
      ),
    )
    .all(
      '/users/totp/setup',
      methods(
        cms,
        {
          POST: async ({ ctx, credentials }) => ({
            body: {
              ...(await setUpTwoFactor(ctx, { session: credentials })),
              message: 'Scan the code with your authenticator app, then confirm with a code.',
            },
            headers: noStore,
          }),
        },
        ownOnly,
      ),
    )
    .all(
      '/users/totp/enable',
      methods(
        cms,
        {
          POST: async ({ ctx, credentials, request }) => {
            await accountTarget(ctx, credentials, undefined); // refused before the body is read
            const body = (await readJSON(request)) as Record<string, unknown> | null;
            return {
              body: {
                recoveryCodes: await turnOnTwoFactor(ctx, { session: credentials, code: body?.code }),
                message: 'Two-factor sign-in is on. Keep the recovery codes somewhere safe: they are shown only now.',
              },
              headers: noStore,
            };
          },
        },
        ownOnly,
      ),
    )
    .all(
      '/users/totp/disable',
      methods(cms, {
        POST: async ({ ctx, credentials, query, request }) => {
          const { own } = await accountTarget(ctx, credentials, query.user); // refused before the body is read
          if (own) {
            const body = (await readJSON(request)) as Record<string, unknown> | null;
            await turnOffTwoFactor(ctx, { session: credentials, code: body?.code, password: body?.password });
          } else {
            // An admin's reset, for a user who lost their device and recovery codes.
            await resetTwoFactor(ctx, { session: credentials, user: query.user });
          }
          return { body: { message: 'Two-factor sign-in is off.' } };
        },
      }),
    );
}
