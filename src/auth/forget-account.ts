/** A deleted user leaves nothing behind that a later user with the same id could inherit. */
import type { Queryable } from '../db/store.ts';
import { endUserSessions } from './sessions.ts';
import { clearTwoFactor } from './two-factor.ts';

export async function forgetAccount(tx: Queryable, userId: number): Promise<void> {
  await endUserSessions(tx, userId);
  await clearTwoFactor(tx, userId);
  await tx.run('DELETE FROM "_cms_reset_tokens" WHERE "userId" = ?', [userId]);
}
