/**
 * Login lock (docs/accounts.md, docs/config.md "Login lock"). Failures count per (email, IP) pair, locking after
 * `maxLoginAttempts`, and per email across all IPs, locking after 4× that: one client cannot lock a
 * person out from another address, and a crowd of addresses still hits the email's ceiling.
 *
 * An attempt is reserved before its secret is checked, in one small transaction (count, then insert),
 * so however many requests arrive at once, at most `limit` checks run per key and window; a reservation
 * stays as the failure unless the check succeeds. Attempts live in the database, so a restart or a
 * second process shares them. All of the lock's SQL is here, for another engine to replace.
 */
import { APIError } from '../errors.ts';
import type { CMS } from '../cms.ts';

const T = '"_cms_login_attempts"';

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

/**
 * The keys forgot-password requests count against: the same limits as login, kept apart from it, so
 * asking for mails neither locks the account's logins nor is unlocked by a successful login. Every
 * request stays counted: a flood of mails to one address stops at the limit.
 */
export function forgotPasswordLockKeys(cms: CMS, email: string, ip: string | null): LockKey[] {
  return loginLockKeys(cms, email, ip).map(({ key, limit }) => ({ key: `forgot-${key}`, limit }));
}

/** Reserves one attempt on every key, or throws 429 with Retry-After when any key is locked. */
export async function reserveAttempt(cms: CMS, keys: LockKey[]): Promise<Reservation> {
  const now = cms.clock.now();
  const windowMs = cms.config.auth.lockWindow * 1000;
  const since = now - windowMs;
  // The table lock (SQLite: BEGIN IMMEDIATE's write lock) is taken before counting, so concurrent attempts
  // (in this process, another process or another instance) count one after another and none slips past.
  const outcome = await cms.store.transaction(async (tx): Promise<{ lastId: number } | { lockedUntil: number }> => {
    await tx.lockTable('_cms_login_attempts');
    await tx.run(`DELETE FROM ${T} WHERE "at" <= ?`, [since]);
    for (const { key, limit } of keys) {
      const { n } = (await tx.get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS "n" FROM ${T} WHERE "key" = ? AND "at" > ?`, [key, since]))!;
      if (n < limit) continue;
      // The lock lifts once fewer than `limit` failures remain in the window.
      const freeing = (await tx.get<{ at: number }>(`SELECT "at" FROM ${T} WHERE "key" = ? AND "at" > ? ORDER BY "at", "id" LIMIT 1 OFFSET ?`, [key, since, n - limit]))!;
      return { lockedUntil: Number(freeing.at) + windowMs };
    }
    let lastId = 0;
    for (const { key } of keys) lastId = Math.max(lastId, await tx.insert(`INSERT INTO ${T} ("key", "at") VALUES (?, ?)`, [key, now]));
    return { lastId };
  });
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
export async function clearFailures(cms: CMS, reservation: Reservation): Promise<void> {
  const keys = reservation.keys.map((k) => k.key);
  const inKeys = cms.store.dialect.inList('"key"', keys);
  await cms.store.run(`DELETE FROM ${T} WHERE ${inKeys.sql} AND "id" <= ?`, [...inKeys.params, reservation.lastId]);
}

/**
 * Lifts the lock of an email (`POST /users/unlock`, admins): its failures from every address go, both the
 * per-email key and each (IP, email) pair. `LIKE … ESCAPE` matches the pairs on both engines; the email is
 * escaped, so `%` or `_` in it match only themselves.
 */
export async function unlockEmail(cms: CMS, email: string): Promise<void> {
  const escaped = email.replace(/[\\%_]/g, (c) => `\\${c}`);
  await cms.store.run(`DELETE FROM ${T} WHERE "key" = ? OR "key" LIKE ? ESCAPE '\\'`, [`email:${email}`, `pair:%/${escaped}`]);
}
