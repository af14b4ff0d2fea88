/**
 * Rules that hold for users across every write, checked inside the write's transaction (BEGIN IMMEDIATE),
 * so two racing requests cannot both remove "the other" admin.
 */
import { badRequest } from '../errors.ts';
import type { CMS } from '../cms.ts';
import { endUserSessions } from './sessions.ts';

function countActiveAdmins(cms: CMS): number {
  return (cms.sqlite.query(`SELECT count(*) AS n FROM "users" WHERE "role" = 'admin' AND ("active" IS NULL OR "active" = 1)`).get() as { n: number }).n;
}

/** Runs a write to users and refuses it (rolling back) if it leaves no active admin where there was one. */
export function guardLastActiveAdmin(cms: CMS, write: () => void): void {
  const before = countActiveAdmins(cms);
  write();
  if (before > 0 && countActiveAdmins(cms) === 0) {
    throw badRequest('This change would leave no active admin: make another user an active admin first.');
  }
}

/** Deactivation and password changes end every session of the user. */
export function endSessionsOnUserChange(cms: CMS, id: number, before: Record<string, unknown>, after: Record<string, unknown>, passwordChanged: boolean): void {
  const deactivated = before.active !== false && after.active === false;
  if (deactivated || passwordChanged) endUserSessions(cms, id);
}
