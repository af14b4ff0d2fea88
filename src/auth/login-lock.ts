/**
 * Login lock (docs/accounts.md, docs/config.md "Login lock"). Failures count per (email, IP) pair, locking after
 * `maxLoginAttempts`, and per email across all IPs, locking after 4× that: one client cannot lock a
 * person out from another address, and a crowd of addresses still hits the email's ceiling.
 *
 * An attempt is reserved before its secret is checked, in one small transaction (count, then insert),
 * so however many requests arrive at once, at most `limit` checks run per key and window. The reservation
 * is marked as a check in progress (`checking:<key>`); a failed check turns it into a failure (`<key>`),
 * a successful one clears the key's failures. An attempt that finds the limit reached while checks are
 * still in progress waits for them rather than being refused: they may succeed and clear the way, so
 * twenty parallel logins with the right password all get in, while a burst of wrong guesses still gets
 * `limit` checks and then 429s. A check left marked by a crash counts as a failure after CHECK_MS.
 * Attempts live in the database, so a restart or a second process shares them. All of the lock's SQL is
 * here, for another engine to replace.
 */
import { APIError } from '../errors.ts';
import type { CMS } from '../cms.ts';
import type { Queryable } from '../db/store.ts';

const T = '"_cms_login_attempts"';

export type LockKey = { key: string; limit: number };
/** The rows one attempt reserved; a success clears its keys' failures up to them. */
export type Reservation = { keys: LockKey[]; ids: number[]; lastId: number };

/** The mark of a reservation whose check is in progress. */
const CHECKING = 'checking:';
/** A check in progress longer than this is taken for a failure (its process died); also the longest wait for one. */
export const CHECK_MS = 30_000;
/** How often a waiting attempt looks again. */
const WAIT_STEP_MS = 20;

/** Failures of one email from all addresses lock it after this many times `maxLoginAttempts`. */
const EMAIL_LIMIT_FACTOR = 4;

/** The keys a password login counts against. Without a known IP the pair is the email alone. */
export function loginLockKeys(cms: CMS, email: string, ip: string | null): LockKey[] {
  const max = cms.config.auth.maxLoginAttempts;
  // An IP holds no `/`, so `<ip>/<email>` cannot be read two ways.
  return [
    { key: `pair:${ip ?? '-'}/${email}`, limit: max },
    { key: `email:${email}`, limit: max * EMAIL_LIMIT_FACTOR },
  ];
}

/**
 * The keys forgot-password requests count against: the same limits as login, kept apart from it, so
 * asking for mails neither locks the account's logins nor is unlocked by a successful login. Every
 * request stays counted: a flood of mails to one address stops at the limit.
 */
export function forgotPasswordLockKeys(cms: CMS, email: string, ip: string | null): LockKey[] {
  return loginLockKeys(cms, email, ip).map(({ key, limit }) => ({ key: `forgot-${key}`, limit }));
}

/**
 * Runs `check` (the password or code check) under the lock: reserves an attempt first (429 when locked),
 * clears the keys' failures when it resolves, and counts a failure when it throws.
 */
export async function checkAttempt<T>(cms: CMS, keys: LockKey[], check: () => Promise<T>): Promise<T> {
  const reservation = await reserveAttempt(cms, keys);
  let result: T;
  try {
    result = await check();
  } catch (error) {
    await countFailure(cms, reservation);
    throw error;
  }
  await clearFailures(cms, reservation);
  return result;
}

/** Counts one request against the keys at once, with nothing to check (forgot-password mails); 429 when locked. */
export async function countRequest(cms: CMS, keys: LockKey[]): Promise<void> {
  await countFailure(cms, await reserveAttempt(cms, keys));
}

type Outcome = { ids: number[] } | { lockedUntil: number } | { waitFor: number };

/** Reserves one attempt on every key, or throws 429 with Retry-After when any key is locked. */
async function reserveAttempt(cms: CMS, keys: LockKey[]): Promise<Reservation> {
  const windowMs = cms.config.auth.lockWindow * 1000;
  const waitUntil = performance.now() + CHECK_MS;
  for (;;) {
    const now = cms.clock.now();
    const outcome = await tryReserve(cms, keys, now, now - windowMs);
    if ('ids' in outcome) return { keys, ids: outcome.ids, lastId: Math.max(...outcome.ids) };
    if ('waitFor' in outcome && performance.now() < waitUntil) {
      await Bun.sleep(WAIT_STEP_MS);
      continue;
    }
    const until = 'lockedUntil' in outcome ? outcome.lockedUntil : now + windowMs;
    const retryAfter = Math.max(1, Math.ceil((until - now) / 1000));
    throw new APIError(429, 'Too many failed login attempts. Try again later.', undefined, {
      headers: { 'retry-after': String(retryAfter) },
    });
  }
}

async function tryReserve(cms: CMS, keys: LockKey[], now: number, since: number): Promise<Outcome> {
  // The table lock (SQLite: BEGIN IMMEDIATE's write lock) is taken before counting, so concurrent attempts
  // (in this process, another process or another instance) count one after another and none slips past.
  return cms.store.transaction(async (tx): Promise<Outcome> => {
    await tx.lockTable('_cms_login_attempts');
    await tx.run(`DELETE FROM ${T} WHERE "at" <= ?`, [since]);
    for (const { key, limit } of keys) {
      const both = [key, CHECKING + key];
      const { n, checking } = (await tx.get<{ n: number; checking: number }>(
        `SELECT CAST(count(*) AS INTEGER) AS "n", CAST(count(CASE WHEN "key" = ? AND "at" > ? THEN 1 END) AS INTEGER) AS "checking" FROM ${T} WHERE "key" IN (?, ?) AND "at" > ?`,
        [CHECKING + key, now - CHECK_MS, ...both, since],
      ))!;
      if (n < limit) continue;
      if (checking > 0) return { waitFor: checking };
      // The lock lifts once fewer than `limit` failures remain in the window.
      const freeing = (await tx.get<{ at: number }>(
        `SELECT "at" FROM ${T} WHERE "key" IN (?, ?) AND "at" > ? ORDER BY "at", "id" LIMIT 1 OFFSET ?`,
        [...both, since, n - limit],
      ))!;
      return { lockedUntil: Number(freeing.at) + cms.config.auth.lockWindow * 1000 };
    }
    const ids: number[] = [];
    for (const { key } of keys)
      ids.push(await tx.insert(`INSERT INTO ${T} ("key", "at") VALUES (?, ?)`, [CHECKING + key, now]));
    return { ids };
  });
}

/** A failed check: its reservation stays, as a failure. */
async function countFailure(cms: CMS, reservation: Reservation): Promise<void> {
  await cms.store.transaction(async (tx) => {
    for (const [i, { key }] of reservation.keys.entries())
      await tx.run(`UPDATE ${T} SET "key" = ? WHERE "id" = ?`, [key, reservation.ids[i]]);
  });
}

/**
 * A successful check clears the failures of its keys, its own reservation included. Attempts reserved
 * after it are still running their check and keep counting.
 */
async function clearFailures(cms: CMS, reservation: Reservation): Promise<void> {
  const keys = reservation.keys.flatMap((k) => [k.key, CHECKING + k.key]);
  const inKeys = cms.store.dialect.inList('"key"', keys);
  await cms.store.run(`DELETE FROM ${T} WHERE ${inKeys.sql} AND "id" <= ?`, [...inKeys.params, reservation.lastId]);
}

/**
 * Lifts the lock of an email (`POST /users/unlock`, admins): its failures from every address go, both the
 * per-email key and each (IP, email) pair. `LIKE … ESCAPE` matches the pairs on both engines; the email is
 * escaped, so `%` or `_` in it match only themselves.
 */
export async function unlockEmail(cms: CMS, email: string, db: Queryable = cms.store): Promise<void> {
  const escaped = email.replace(/[\\%_]/g, (c) => `\\${c}`);
  await db.run(`DELETE FROM ${T} WHERE "key" IN (?, ?) OR "key" LIKE ? ESCAPE '\\' OR "key" LIKE ? ESCAPE '\\'`, [
    `email:${email}`,
    `${CHECKING}email:${email}`,
    `pair:%/${escaped}`,
    `${CHECKING}pair:%/${escaped}`,
  ]);
}
