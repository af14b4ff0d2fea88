/**
 * Extends the caller's session by `auth.tokenExpiration` from now (Payload's refresh). Sessions only: an API
 * key does not end with a session and has nothing to refresh.
 */
import { refreshSession } from '../../auth/sessions.ts';
import { unauthorized } from '../../errors.ts';
import type { OperationContext } from '../../operation-context.ts';
import type { CallerSession } from './account-target.ts';
import { presentOwnUser, seconds } from './own-user.ts';

export type RefreshAnswer = { user: Record<string, unknown>; refreshedToken: string; exp: number };

export async function refreshToken(ctx: OperationContext, args: { session: CallerSession }): Promise<RefreshAnswer> {
  const { token, via } = args.session;
  const refreshed = ctx.user && token && via !== 'api-key' ? await refreshSession(ctx.cms, token) : null;
  if (!refreshed) throw unauthorized('A valid session is required to refresh it.');
  return { user: await presentOwnUser(ctx, ctx.user!), refreshedToken: token!, exp: seconds(refreshed.expiresAt) };
}
