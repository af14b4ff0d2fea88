/**
 * Who is asking (`GET /users/me`, GraphQL's `me`): the caller's own record, and the session's token and end.
 * An API key is never echoed: its token and end are null, its strategy `api-key`.
 */
import type { OperationContext } from '../../operation-context.ts';
import type { CallerSession } from './account-target.ts';
import { presentOwnUser, seconds } from './own-user.ts';

export type MeAnswer = {
  user: Record<string, unknown> | null;
  token: string | null;
  exp: number | null;
  csrfToken: string | null;
  strategy: 'local-jwt' | 'api-key' | null;
};

export async function me(ctx: OperationContext, args: { session: CallerSession }): Promise<MeAnswer> {
  const { session } = args;
  if (!ctx.user) return { user: null, token: null, exp: null, csrfToken: null, strategy: null };
  const signedIn = session.via === 'api-key' || !session.token ? null : session;
  return {
    user: await presentOwnUser(ctx, ctx.user),
    token: signedIn?.token ?? null,
    exp: signedIn?.expiresAt !== undefined ? seconds(signedIn.expiresAt) : null,
    csrfToken: session.csrfToken ?? null,
    strategy: session.via === 'api-key' ? 'api-key' : 'local-jwt',
  };
}
