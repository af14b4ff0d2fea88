/**
 * Two-factor sign-in (docs/accounts.md): setup stores a pending secret, enable turns it on with a first code
 * and hands out 10 recovery codes once (stored as sha256), and every accepted code is spent: a TOTP step
 * is never taken twice (`lastStep`, advanced by one conditional UPDATE, so two instances cannot both
 * accept it) and a recovery code row is deleted as it is used.
 */
import { createHash, randomBytes } from 'node:crypto';
import { APIError, badRequest } from '../errors.ts';
import type { User } from '../config/types.ts';
import type { CMS } from '../cms.ts';
import type { Queryable } from '../db/store.ts';
import { PRODUCT_NAME } from '../email/account-emails.ts';
import { base32Encode, matchingStep, otpauthURL } from './totp.ts';
import { openSecret, sealSecret } from './secret-box.ts';
import { verifyPassword } from './password.ts';
import { checkAttempt, loginLockKeys } from './login-lock.ts';

const RECOVERY_CODES = 10;
export type TotpRow = { secret: string; enabledAt: number | null; lastStep: number | null };

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');
/** Recovery codes are typed by people: case, spaces and the dash do not matter. */
const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

function newRecoveryCode(): string {
  const code = base32Encode(randomBytes(7)).slice(0, 10).toLowerCase();
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

const readRow = (db: Queryable, userId: number) =>
  db.get<TotpRow>('SELECT "secret", "enabledAt", "lastStep" FROM "_cms_totp" WHERE "userId" = ?', [userId]);

export async function twoFactorEnabled(db: Queryable, userId: number): Promise<boolean> {
  return Boolean(
    await db.get('SELECT 1 AS "on" FROM "_cms_totp" WHERE "userId" = ? AND "enabledAt" IS NOT NULL', [userId]),
  );
}

/** The user's second factor while two-factor sign-in is on, else null: a sign-in reads it once and passes it along. */
export async function enabledSecondFactor(db: Queryable, userId: number): Promise<TotpRow | null> {
  const row = await readRow(db, userId);
  return row?.enabledAt != null ? row : null;
}

/** A new pending secret (replacing an earlier pending one); refused while two-factor sign-in is on. */
export async function setupTwoFactor(cms: CMS, user: User): Promise<{ secret: string; otpauthUrl: string }> {
  if (await twoFactorEnabled(cms.store, user.id))
    throw badRequest('Two-factor sign-in is already on. Turn it off first to set it up again.');
  const secret = base32Encode(randomBytes(20));
  await cms.store.run(
    `INSERT INTO "_cms_totp" ("userId", "secret", "enabledAt", "lastStep") VALUES (?, ?, NULL, NULL)
    ON CONFLICT ("userId") DO UPDATE SET "secret" = excluded."secret", "enabledAt" = NULL, "lastStep" = NULL`,
    [user.id, sealSecret(cms.secret, secret)],
  );
  return { secret, otpauthUrl: otpauthURL(secret, user.email, PRODUCT_NAME) };
}

/** Turns on the pending secret when `code` is its current code; answers the recovery codes, once. */
export async function enableTwoFactor(cms: CMS, user: User, code: unknown): Promise<string[]> {
  const row = await readRow(cms.store, user.id);
  if (!row) throw badRequest('Set up two-factor sign-in first (POST /users/totp/setup).');
  if (row.enabledAt !== null) throw badRequest('Two-factor sign-in is already on.');
  const secret = openSecret(cms.secret, row.secret);
  const step = typeof code === 'string' && secret ? matchingStep(secret, code.trim(), cms.clock.now()) : null;
  if (step === null) throw badRequest('The code is not valid. Enter the 6-digit code your app shows now.', 'code');
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await cms.store.transaction(async (tx) => {
    await tx.run('UPDATE "_cms_totp" SET "enabledAt" = ?, "lastStep" = ? WHERE "userId" = ?', [
      cms.clock.now(),
      step,
      user.id,
    ]);
    await tx.run('DELETE FROM "_cms_recovery_codes" WHERE "userId" = ?', [user.id]);
    for (const c of codes)
      await tx.run('INSERT INTO "_cms_recovery_codes" ("userId", "codeHash") VALUES (?, ?)', [
        user.id,
        hashCode(normalizeRecoveryCode(c)),
      ]);
  });
  return codes;
}

/**
 * Spends `code` for `userId`: a TOTP code of a step after the last accepted one, or an unused recovery
 * code. False when it is neither. `known`: the row the caller has already read (requireSecondFactor).
 */
export async function spendSecondFactor(cms: CMS, userId: number, code: string, known?: TotpRow): Promise<boolean> {
  const trimmed = code.trim();
  if (/^\d{6}$/.test(trimmed)) {
    const row = known ?? (await readRow(cms.store, userId));
    const secret = row?.enabledAt != null ? openSecret(cms.secret, row.secret) : null;
    const step = secret ? matchingStep(secret, trimmed, cms.clock.now()) : null;
    if (step === null) return false;
    const { changes } = await cms.store.run(
      'UPDATE "_cms_totp" SET "lastStep" = ? WHERE "userId" = ? AND ("lastStep" IS NULL OR "lastStep" < ?)',
      [step, userId, step],
    );
    return changes === 1;
  }
  const hash = hashCode(normalizeRecoveryCode(trimmed));
  const { changes } = await cms.store.run(
    `DELETE FROM "_cms_recovery_codes" WHERE "id" = (
    SELECT "id" FROM "_cms_recovery_codes" WHERE "userId" = ? AND "codeHash" = ? LIMIT 1)`,
    [userId, hash],
  );
  return changes === 1;
}

/**
 * The second factor of a sign-in (login, reset), given the user's `enabledSecondFactor` (null: off, nothing
 * to ask): a missing or wrong code is a 401 naming `code`. The caller has reserved a login-lock attempt, so
 * a wrong code counts as a failed login.
 */
export async function requireSecondFactor(
  cms: CMS,
  userId: number,
  totp: TotpRow | null,
  code: unknown,
): Promise<void> {
  if (!totp) return;
  if (typeof code !== 'string' || !code.trim())
    throw new APIError(401, 'Enter the code from your authenticator app (or a recovery code).', 'code');
  if (!(await spendSecondFactor(cms, userId, code, totp)))
    throw new APIError(401, 'The two-factor code is not valid.', 'code');
}

/**
 * Turns two-factor sign-in off with a current code or the password. Attempts count toward the login lock,
 * so a stolen session cannot guess its way to turning it off.
 */
export async function disableTwoFactor(
  cms: CMS,
  user: User,
  input: { code?: unknown; password?: unknown; ip: string | null },
): Promise<void> {
  const { code, password } = input;
  if (typeof code !== 'string' && typeof password !== 'string')
    throw badRequest('Send the current code or your password.', 'code');
  await checkAttempt(cms, loginLockKeys(cms, user.email, input.ip), async () => {
    const ok =
      typeof password === 'string'
        ? await verifyPassword(password, await passwordHashOf(cms, user.id))
        : await spendSecondFactor(cms, user.id, code as string);
    if (!ok)
      throw badRequest(
        typeof password === 'string' ? 'The password is not correct.' : 'The two-factor code is not valid.',
        typeof password === 'string' ? 'password' : 'code',
      );
  });
  await clearTwoFactor(cms.store, user.id);
}

async function passwordHashOf(cms: CMS, userId: number): Promise<string | null> {
  const row = await cms.store.get<{ passwordHash: string | null }>(
    'SELECT "passwordHash" FROM "users" WHERE "id" = ?',
    [userId],
  );
  return row?.passwordHash ?? null;
}

/** Removes a user's second factor and recovery codes (turning it off, an admin's reset, a deleted user). */
export async function clearTwoFactor(db: Queryable, userId: number): Promise<void> {
  await db.run('DELETE FROM "_cms_totp" WHERE "userId" = ?', [userId]);
  await db.run('DELETE FROM "_cms_recovery_codes" WHERE "userId" = ?', [userId]);
}

/** Whether this user must still enrol: their role is in `auth.requireTwoFactor` and two-factor sign-in is off. */
export async function mustEnrolTwoFactor(cms: CMS, user: User): Promise<boolean> {
  return cms.config.auth.requireTwoFactor.includes(user.role) && !(await twoFactorEnabled(cms.store, user.id));
}
