/**
 * Signing out elsewhere (`DELETE /users/sessions[/:id]`): every session of the account but the caller's own,
 * or one by its public id. An admin ending another user's sessions leaves an audit entry, in the same
 * transaction as the sessions it ends.
 */
import { endOtherSessions, endSessionById } from '../../auth/sessions.ts';
import type { OperationContext } from '../../operation-context.ts';
import { accountTarget, type CallerSession } from './account-target.ts';
import { auditAccountAction } from './audit-account.ts';

type Args = { session: CallerSession; user?: unknown };

/** The number of sessions ended, and whether they were the caller's own (their current one kept). */
export async function endAccountSessions(ctx: OperationContext, args: Args): Promise<{ ended: number; own: boolean }> {
  const { user, own } = await accountTarget(ctx, args.session, args.user);
  if (own) return { ended: await endOtherSessions(ctx.cms.store, user.id, args.session.sessionId ?? null), own };
  const ended = await ctx.cms.store.transaction(async (tx) => {
    const count = await endOtherSessions(tx, user.id, null);
    await auditAccountAction(tx, ctx, 'end_sessions', user.id);
    return count;
  });
  return { ended, own };
}

/** `id`: the session's public id; one of another user, or an unknown one, is a 404. */
export async function endAccountSession(ctx: OperationContext, args: Args & { id: string }): Promise<void> {
  const { user, own } = await accountTarget(ctx, args.session, args.user);
  if (own) return endSessionById(ctx.cms.store, user.id, args.id);
  await ctx.cms.store.transaction(async (tx) => {
    await endSessionById(tx, user.id, args.id);
    await auditAccountAction(tx, ctx, 'end_session', user.id);
  });
}
