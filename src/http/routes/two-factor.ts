/** Two-factor sign-in over HTTP (docs/accounts.md): status, setup, enable, disable; admins read or clear another user's with `?user=`. */
import { Elysia } from 'elysia';
import type { CMS } from '../../cms.ts';
import {
  clearTwoFactor,
  disableTwoFactor,
  enableTwoFactor,
  setupTwoFactor,
  twoFactorEnabled,
} from '../../auth/two-factor.ts';
import { readJSON } from '../body.ts';
import { clientIP } from '../client-ip.ts';
import { methods } from '../handle.ts';
import { accountTarget } from '../account-target.ts';

const ownOnly = { duringTwoFactorSetup: true };

export function twoFactorRoutes(cms: CMS) {
  return new Elysia()
    .all(
      '/users/totp',
      methods(
        cms,
        {
          GET: async (input) => {
            const { user } = await accountTarget(input);
            return {
              body: { enabled: await twoFactorEnabled(cms.store, user.id) },
              headers: { 'cache-control': 'no-store' },
            };
          },
        },
        ownOnly,
      ),
    )
    .all(
      '/users/totp/setup',
      methods(
        cms,
        {
          POST: async (input) => {
            const { user } = await accountTarget({ ...input, query: {} });
            return {
              body: {
                ...(await setupTwoFactor(cms, user)),
                message: 'Scan the code with your authenticator app, then confirm with a code.',
              },
              headers: { 'cache-control': 'no-store' },
            };
          },
        },
        ownOnly,
      ),
    )
    .all(
      '/users/totp/enable',
      methods(
        cms,
        {
          POST: async (input) => {
            const { user } = await accountTarget({ ...input, query: {} });
            const body = (await readJSON(input.request)) as Record<string, unknown> | null;
            const recoveryCodes = await enableTwoFactor(cms, user, body?.code);
            return {
              body: {
                recoveryCodes,
                message: 'Two-factor sign-in is on. Keep the recovery codes somewhere safe: they are shown only now.',
              },
              headers: { 'cache-control': 'no-store' },
            };
          },
        },
        ownOnly,
      ),
    )
    .all(
      '/users/totp/disable',
      methods(cms, {
        POST: async (input) => {
          const { user, own } = await accountTarget(input);
          if (own) {
            const body = (await readJSON(input.request)) as Record<string, unknown> | null;
            await disableTwoFactor(cms, user, {
              code: body?.code,
              password: body?.password,
              ip: clientIP(cms.config, input.request),
            });
          } else {
            // An admin's reset, for a user who lost their device and recovery codes.
            await clearTwoFactor(cms.store, user.id);
          }
          return { body: { message: 'Two-factor sign-in is off.' } };
        },
      }),
    );
}
