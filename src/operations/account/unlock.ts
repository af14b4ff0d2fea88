/**
 * Lifts the login lock of an email (`POST /users/unlock`, GraphQL's `unlock`): admins only. The audit log
 * records it against the account with that email (none when no account has it).
 */
import { isFullAdmin } from '../../access/key-limits.ts';
import { unlockEmail } from '../../auth/login-lock.ts';
import { findUserRowByEmail } from '../../auth/load-user.ts';
import { badRequest, forbidden, unauthorized } from '../../errors.ts';
import type { OperationContext } from '../../operation-context.ts';
import { auditAccountAction } from './audit-account.ts';

/** The check before the email is read: a transport may run it before reading the request's body. */
export function authorizeUnlock(ctx: OperationContext): void {
  if (ctx.overrideAccess) return;
  if (!ctx.user) throw unauthorized();
  if (!isFullAdmin(ctx.user, ctx.scopes)) throw forbidden('Only admins can unlock a login.');
}

export async function unlockLogin(ctx: OperationContext, args: { email: unknown }): Promise<void> {
  authorizeUnlock(ctx);
  if (typeof args.email !== 'string' || !args.email.trim()) throw badRequest('An email is required.', 'email');
  const email = args.email.trim().toLowerCase();
  const account = await findUserRowByEmail(ctx.cms, email);
  await ctx.cms.store.transaction(async (tx) => {
    await unlockEmail(ctx.cms, email, tx);
    await auditAccountAction(tx, ctx, 'unlock', account ? (account.id as number) : null);
  });
}
