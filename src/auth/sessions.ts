/**
 * Sessions: a random 256-bit token given to the client (cookie `cms-session` or bearer); only its sha256
 * is stored. Each session has its own CSRF token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lte } from 'drizzle-orm';
import { sessions } from '../db/system-schema.ts';
import type { CMS } from '../cms.ts';

export type Session = { token: string; csrfToken: string; userId: number; expiresAt: number };

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export function createSession(cms: CMS, userId: number): Session {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const now = cms.clock.now();
  const expiresAt = now + cms.config.auth.tokenExpiration * 1000;
  cms.db.delete(sessions).where(lte(sessions.expiresAt, now)).run();
  cms.db.insert(sessions).values({ tokenHash: hashToken(token), userId, csrfToken, expiresAt, createdAt: now }).run();
  return { token, csrfToken, userId, expiresAt };
}

/** The live session for a token, or null (unknown or expired). */
export function findSession(cms: CMS, token: string): { userId: number; csrfToken: string; expiresAt: number } | null {
  const row = cms.db.select().from(sessions).where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, cms.clock.now()))).get();
  return row ? { userId: row.userId, csrfToken: row.csrfToken, expiresAt: row.expiresAt } : null;
}

export function endSession(cms: CMS, token: string): void {
  cms.db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token))).run();
}

export function endUserSessions(cms: CMS, userId: number): void {
  cms.db.delete(sessions).where(eq(sessions.userId, userId)).run();
}
