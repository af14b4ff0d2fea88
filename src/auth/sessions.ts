/**
 * Sessions: a random 256-bit token given to the client (cookie `cms-session` or bearer); only its sha256
 * is stored. Each session has its own CSRF token.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { CMS } from '../cms.ts';
import type { Queryable } from '../db/store.ts';

export type Session = { token: string; csrfToken: string; userId: number; expiresAt: number };

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(cms: CMS, userId: number): Promise<Session> {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const now = cms.clock.now();
  const expiresAt = now + cms.config.auth.tokenExpiration * 1000;
  await cms.store.run('DELETE FROM "_cms_sessions" WHERE "expiresAt" <= ?', [now]);
  await cms.store.run('INSERT INTO "_cms_sessions" ("tokenHash", "userId", "csrfToken", "expiresAt", "createdAt") VALUES (?, ?, ?, ?, ?)',
    [hashToken(token), userId, csrfToken, expiresAt, now]);
  return { token, csrfToken, userId, expiresAt };
}

/** The live session for a token, or null (unknown or expired). */
export function findSession(cms: CMS, token: string): Promise<{ userId: number; csrfToken: string; expiresAt: number } | null> {
  return cms.store.get('SELECT "userId", "csrfToken", "expiresAt" FROM "_cms_sessions" WHERE "tokenHash" = ? AND "expiresAt" > ?',
    [hashToken(token), cms.clock.now()]);
}

/** Extends a live session by `auth.tokenExpiration` from now (Payload's refresh); null when the token names none. */
export async function refreshSession(cms: CMS, token: string): Promise<{ expiresAt: number } | null> {
  const now = cms.clock.now();
  const expiresAt = now + cms.config.auth.tokenExpiration * 1000;
  const changed = await cms.store.run('UPDATE "_cms_sessions" SET "expiresAt" = ? WHERE "tokenHash" = ? AND "expiresAt" > ?', [expiresAt, hashToken(token), now]);
  return changed.changes ? { expiresAt } : null;
}

export async function endSession(cms: CMS, token: string): Promise<void> {
  await cms.store.run('DELETE FROM "_cms_sessions" WHERE "tokenHash" = ?', [hashToken(token)]);
}

/** `db` is the store, or the `tx` of the user change that ends them. */
export async function endUserSessions(db: Queryable, userId: number): Promise<void> {
  await db.run('DELETE FROM "_cms_sessions" WHERE "userId" = ?', [userId]);
}
