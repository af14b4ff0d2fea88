/** A user's live sessions (`GET /users/sessions`): the caller's own (theirs marked `current`), or an admin's view of another's. */
import { listSessions } from '../../auth/sessions.ts';
import type { OperationContext } from '../../operation-context.ts';
import { accountTarget, type CallerSession } from './account-target.ts';

export async function listAccountSessions(ctx: OperationContext, args: { session: CallerSession; user?: unknown }) {
  const { user, own } = await accountTarget(ctx, args.session, args.user);
  return listSessions(ctx.cms, user.id, own ? (args.session.sessionId ?? null) : null);
}
