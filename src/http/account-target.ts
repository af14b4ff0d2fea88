/**
 * Whose account a sessions or two-factor route acts on: the caller's own, through a session (an API key
 * is no one's signed-in browser), or with `?user=<id>` another user's, for admins only (docs/accounts.md).
 */
import { forbidden, notFound, unauthorized } from '../errors.ts';
import type { User } from '../config/types.ts';
import { isFullAdmin } from '../access/key-limits.ts';
import { parseId } from '../operations/entities.ts';
import type { RouteInput } from './handle.ts';

export type AccountTarget = { user: User; own: boolean };

export async function accountTarget(input: RouteInput): Promise<AccountTarget> {
  const { credentials, query, cms } = input;
  if (!credentials.user) throw unauthorized();
  if (query.user === undefined || String(query.user) === String(credentials.user.id)) {
    if (credentials.via === 'api-key') throw forbidden('This needs a signed-in session, not an API key.');
    return { user: credentials.user, own: true };
  }
  if (!isFullAdmin(credentials.user, credentials.scopes))
    throw forbidden("Only admins can manage another user's account.");
  const id = parseId(query.user);
  const row = await cms.store.get<{ id: number; email: string; role: string }>(
    'SELECT "id", "email", "role" FROM "users" WHERE "id" = ?',
    [id],
  );
  if (!row) throw notFound('User not found.');
  return { user: { id: row.id, email: row.email, role: row.role }, own: false };
}
