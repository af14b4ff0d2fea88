/**
 * Login lock (SPEC States, Limits): after `maxLoginAttempts` failures within `lockWindow` seconds for an
 * email, and separately for an IP, login answers 429 until the window has passed. Attempts live in the
 * database, so a restart does not reset them.
 */
import { and, eq, gt, lte, asc, count } from 'drizzle-orm';
import { loginAttempts } from '../db/system-schema.ts';
import { APIError } from '../errors.ts';
import type { CMS } from '../cms.ts';

export function lockKeys(email: string, ip: string | null): string[] {
  return ip ? [`email:${email}`, `ip:${ip}`] : [`email:${email}`];
}

/** Throws 429 with Retry-After when any key is locked. */
export function assertNotLocked(cms: CMS, keys: string[]): void {
  const now = cms.clock.now();
  const windowMs = cms.config.auth.lockWindow * 1000;
  const since = now - windowMs;
  cms.db.delete(loginAttempts).where(lte(loginAttempts.at, since)).run();
  for (const key of keys) {
    const failures = cms.db.select({ n: count() }).from(loginAttempts).where(and(eq(loginAttempts.key, key), gt(loginAttempts.at, since))).get()!.n;
    if (failures < cms.config.auth.maxLoginAttempts) continue;
    const oldest = cms.db.select({ at: loginAttempts.at }).from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.at, since))).orderBy(asc(loginAttempts.at)).limit(1).get()!;
    const retryAfter = Math.max(1, Math.ceil((oldest.at + windowMs - now) / 1000));
    throw new APIError(429, 'Too many failed login attempts. Try again later.', undefined, { headers: { 'retry-after': String(retryAfter) } });
  }
}

export function recordFailure(cms: CMS, keys: string[]): void {
  const at = cms.clock.now();
  cms.db.insert(loginAttempts).values(keys.map((key) => ({ key, at }))).run();
}

export function clearFailures(cms: CMS, email: string): void {
  cms.db.delete(loginAttempts).where(eq(loginAttempts.key, `email:${email}`)).run();
}
