/**
 * Whose account an account operation acts on: the caller's own, through a session (an API key is no
 * one's signed-in browser), or with `user: <id>` another user's, for admins only (docs/accounts.md).
 */
import { forbidden, notFound, unauthorized } from '../../errors.ts';
import type { User } from '../../config/types.ts';
import { isFullAdmin } from '../../access/key-limits.ts';
import { selectRowById } from '../../db/documents.ts';
import { parseId } from '../steps/entities.ts';
import type { OperationContext } from '../../operation-context.ts';

/** How the caller signed in, as the transport authenticated them: what account operations need beyond `ctx`. */
export type CallerSession = {
  via: 'cookie' | 'bearer' | 'api-key' | null;
  token?: string;
  csrfToken?: string;
  /** The session's public id (the sessions list's `current`). */
  sessionId?: string;
  /** When the session or API key ends (ms). */
  expiresAt?: number;
};

export type AccountTarget = { user: User; own: boolean };

/** `user`: the id another user's account is asked by (`?user=`), or undefined for the caller's own. */
export async function accountTarget(
  ctx: OperationContext,
  session: CallerSession,
  user: unknown,
): Promise<AccountTarget> {
  const caller = ctx.user;
  if (!caller) throw unauthorized();
  if (user === undefined || String(user) === String(caller.id)) {
    if (session.via === 'api-key') throw forbidden('This needs a signed-in session, not an API key.');
    return { user: caller, own: true };
  }
  if (!ctx.overrideAccess && !isFullAdmin(caller, ctx.scopes))
    throw forbidden("Only admins can manage another user's account.");
  const users = ctx.cms.config.collectionsBySlug.get('users')!;
  const row = await selectRowById(ctx.cms.store, users, parseId(user));
  if (!row) throw notFound('User not found.');
  return { user: { id: row.id as number, email: row.email as string, role: row.role as string }, own: false };
}
