/**
 * Setting up and turning on two-factor sign-in: the caller's own account only, through a session. Setup
 * answers a new pending secret; turning on takes its current code and answers the recovery codes, once.
 */
import { enableTwoFactor, setupTwoFactor } from '../../auth/two-factor.ts';
import type { OperationContext } from '../../operation-context.ts';
import { accountTarget, type CallerSession } from './account-target.ts';

export async function setUpTwoFactor(ctx: OperationContext, args: { session: CallerSession }) {
  const { user } = await accountTarget(ctx, args.session, undefined);
  return setupTwoFactor(ctx.cms, user);
}

export async function turnOnTwoFactor(
  ctx: OperationContext,
  args: { session: CallerSession; code: unknown },
): Promise<string[]> {
  const { user } = await accountTarget(ctx, args.session, undefined);
  return enableTwoFactor(ctx.cms, user, args.code);
}
