/**
 * Turning two-factor sign-in off: users their own, with a current code or their password (counted by the
 * login lock); an admin another user's, for one who lost their device and recovery codes. The admin's reset
 * leaves an audit entry in the transaction that clears the second factor.
 */
import { clearTwoFactor, disableTwoFactor } from '../../auth/two-factor.ts';
import { badRequest } from '../../errors.ts';
import type { OperationContext } from '../../operation-context.ts';
import { accountTarget, type CallerSession } from './account-target.ts';
import { auditAccountAction } from './audit-account.ts';

export async function turnOffTwoFactor(
  ctx: OperationContext,
  args: { session: CallerSession; code?: unknown; password?: unknown },
): Promise<void> {
  const { user } = await accountTarget(ctx, args.session, undefined);
  await disableTwoFactor(ctx.cms, user, { code: args.code, password: args.password, ip: ctx.ip ?? null });
}

/** `user`: the id of another user; one's own second factor is turned off with a code or the password instead. */
export async function resetTwoFactor(ctx: OperationContext, args: { session: CallerSession; user: unknown }) {
  const { user, own } = await accountTarget(ctx, args.session, args.user);
  if (own) throw badRequest('Send the current code or your password.', 'code');
  await ctx.cms.store.transaction(async (tx) => {
    await clearTwoFactor(tx, user.id);
    await auditAccountAction(tx, ctx, 'reset_two_factor', user.id);
  });
}
