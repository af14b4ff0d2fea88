/**
 * Rules that hold for users across every write, checked inside the write's transaction with the users
 * table locked, so two racing requests cannot both remove "the other" admin.
 */
import { badRequest } from '../errors.ts';
import type { Queryable } from '../db/store.ts';
import { endUserSessions } from './sessions.ts';

async function countActiveAdmins(tx: Queryable): Promise<number> {
  return (await tx.get<{ n: number }>(
    `SELECT CAST(count(*) AS INTEGER) AS "n" FROM "users" WHERE "role" = 'admin' AND ("active" IS NULL OR "active" = ?)`,
    [tx.dialect.boolean(true)],
  ))!.n;
}

/** Runs a write to users and refuses it (rolling back) if it leaves no active admin where there was one. */
export async function guardLastActiveAdmin(tx: Queryable, write: () => Promise<void>): Promise<void> {
  await tx.lockTable('users');
  const before = await countActiveAdmins(tx);
  await write();
  if (before > 0 && (await countActiveAdmins(tx)) === 0) {
    throw badRequest('This change would leave no active admin: make another user an active admin first.');
  }
}

/** Deactivation and password changes end every session of the user. */
export async function endSessionsOnUserChange(
  tx: Queryable,
  id: number,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  passwordChanged: boolean,
): Promise<void> {
  const deactivated = before.active !== false && after.active === false;
  if (deactivated || passwordChanged) await endUserSessions(tx, id);
}
