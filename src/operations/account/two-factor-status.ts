/** Whether two-factor sign-in is on (`GET /users/totp`): for the caller's own account, or an admin's view of another's. */
import { twoFactorEnabled } from '../../auth/two-factor.ts';
import type { OperationContext } from '../../operation-context.ts';
import { accountTarget, type CallerSession } from './account-target.ts';

export async function twoFactorStatus(
  ctx: OperationContext,
  args: { session: CallerSession; user?: unknown },
): Promise<{ enabled: boolean }> {
  const { user } = await accountTarget(ctx, args.session, args.user);
  return { enabled: await twoFactorEnabled(ctx.cms.store, user.id) };
}
