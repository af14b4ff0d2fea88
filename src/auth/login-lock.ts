/**
 * Login lock (SPEC States, Limits; CONTRACT §8). Failures count per (email, IP) pair, locking after
 * `maxLoginAttempts`, and per email across all IPs, locking after 4× that: one client cannot lock a
 * person out from another address, and a crowd of addresses still hits the email's ceiling.
 *
 * An attempt is reserved before its secret is checked, in one small transaction (count, then insert),
 * so however many requests arrive at once, at most `limit` checks run per key and window; a reservation
 * stays as the failure unless the check succeeds. Attempts live in the database, so a restart or a
 * second process shares them. All of the lock's SQL is here, for another engine to replace.
 */
import { and, asc, count, eq, gt, inArray, lte } from 'drizzle-orm';
import { loginAttempts } from '../db/system-schema.ts';
import { APIError } from '../errors.ts';
import type { CMS } from '../cms.ts';

export type LockKey = { key: string; limit: number };
/** The rows one attempt reserved; a success clears its keys' failures up to them. */
export type Reservation = { keys: LockKey[]; lastId: number };

/** Failures of one email from all addresses lock it after this many times `maxLoginAttempts`. */
const EMAIL_LIMIT_FACTOR = 4;

/** The keys a password login counts against. Without a known IP the pair is the email alone. */
export function loginLockKeys(cms: CMS, email: string, ip: string | null): LockKey[] {
  const max = cms.config.auth.maxLoginAttempts;
  // An IP holds no `/`, so `<ip>/<email>` cannot be read two ways.
  return [{ key: `pair:${ip ?? '-'}/${email}`, limit: max }, { key: `email:${email}`, limit: max * EMAIL_LIMIT_FACTOR }];
}

/** Reserves one attempt on every key, or throws 429 with Retry-After when any key is locked. */
export function reserveAttempt(cms: CMS, keys: LockKey[]): Reservation {
  const now = cms.clock.now();
  const windowMs = cms.config.auth.lockWindow * 1000;
  const since = now - windowMs;
  // BEGIN IMMEDIATE takes the write lock before counting, so concurrent attempts (in this process or
  // another one on the same file) count one after another and none slips past the limit.
  const outcome = cms.sqlite.transaction((): { lastId: number } | { lockedUntil: number } => {
    cms.db.delete(loginAttempts).where(lte(loginAttempts.at, since)).run();
    for (const { key, limit } of keys) {
      const inWindow = and(eq(loginAttempts.key, key), gt(loginAttempts.at, since));
      const failures = cms.db.select({ n: count() }).from(loginAttempts).where(inWindow).get()!.n;
      if (failures < limit) continue;
      // The lock lifts once fewer than `limit` failures remain in the window.
      const freeing = cms.db.select({ at: loginAttempts.at }).from(loginAttempts).where(inWindow)
        .orderBy(asc(loginAttempts.at), asc(loginAttempts.id)).limit(1).offset(failures - limit).get()!;
      return { lockedUntil: freeing.at + windowMs };
    }
    const rows = cms.db.insert(loginAttempts).values(keys.map(({ key }) => ({ key, at: now }))).returning({ id: loginAttempts.id }).all();
    return { lastId: Math.max(...rows.map((r) => r.id)) };
  }).immediate();
  if ('lockedUntil' in outcome) {
    const retryAfter = Math.max(1, Math.ceil((outcome.lockedUntil - now) / 1000));
    throw new APIError(429, 'Too many failed login attempts. Try again later.', undefined, { headers: { 'retry-after': String(retryAfter) } });
  }
  return { keys, lastId: outcome.lastId };
}

/**
 * A successful check clears the failures of its keys, its own reservation included. Attempts reserved
 * after it are still running their check and keep counting.
 */
export function clearFailures(cms: CMS, reservation: Reservation): void {
  const keys = reservation.keys.map((k) => k.key);
  cms.db.delete(loginAttempts).where(and(inArray(loginAttempts.key, keys), lte(loginAttempts.id, reservation.lastId))).run();
}
