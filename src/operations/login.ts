/** Login and the session answer: the operations behind the users routes and `cms create-admin`. */
import { rowToDoc } from '../fields/row.ts';
import { countRows } from '../db/documents.ts';
import { APIError } from '../errors.ts';
import type { User } from '../config/types.ts';
import type { CMS } from '../cms.ts';
import { verifyPassword } from '../auth/password.ts';
import { createSession, type Session, type SessionClient } from '../auth/sessions.ts';
import { findUserRowByEmail } from '../auth/load-user.ts';
import { enabledSecondFactor, requireSecondFactor } from '../auth/two-factor.ts';
import { checkAttempt, loginLockKeys } from '../auth/login-lock.ts';
import { presentDoc } from './steps/present.ts';
import { createContext } from '../operation-context.ts';
import { writeAuditEntry } from '../audit/write-entry.ts';
import { recordFailedLogin } from '../audit/failed-logins.ts';
import type { Via, WriteOrigin } from '../events/change-events.ts';

const WRONG = 'The email or password provided is incorrect.';

export type LoginResult = { user: Record<string, unknown>; session: Session };

export function countUsers(cms: CMS): Promise<number> {
  return countRows(cms.store, cms.config.collectionsBySlug.get('users')!, null);
}

/** `via`: the transport asking (REST unless told), for the audit log. */
export type LoginInput = { email?: unknown; password?: unknown; code?: unknown; client?: SessionClient; via?: Via };

export async function login(cms: CMS, input: LoginInput): Promise<LoginResult> {
  if (typeof input.email !== 'string' || typeof input.password !== 'string' || !input.email || !input.password) {
    throw new APIError(
      400,
      'Email and password are required.',
      typeof input.email === 'string' && input.email ? 'password' : 'email',
    );
  }
  const email = input.email.trim().toLowerCase();
  const password = input.password;
  const users = cms.config.collectionsBySlug.get('users')!;
  const origin: WriteOrigin = { user: null, apiKey: null, via: input.via ?? 'rest', ip: input.client?.ip ?? null };
  // Under the lock: a burst of parallel guesses gets at most the limit of checks.
  const user = await checkAttempt(cms, loginLockKeys(cms, email, input.client?.ip ?? null), async () => {
    const row = await findUserRowByEmail(cms, email);
    // Always run scrypt, so an unknown email takes as long as a wrong password.
    const valid = await verifyPassword(password, (row?.passwordHash as string | undefined) ?? null);
    const found = row ? (rowToDoc(users, row) as User) : null;
    const failed = (error: APIError) =>
      recordFailedLogin(cms, row ? (row.id as number) : null, origin).then(() => {
        throw error;
      });
    if (!valid || !found || found.active === false) return failed(new APIError(401, WRONG));
    // A wrong or missing code counts as a failed login.
    await requireSecondFactor(cms, found.id, await enabledSecondFactor(cms.store, found.id), input.code).catch(
      (error) => (error instanceof APIError ? failed(error) : Promise.reject(error)),
    );
    return found;
  });
  const session = await cms.store.transaction(async (tx) => {
    const made = await createSession(cms, user.id, input.client, tx);
    await writeAuditEntry(tx, cms, {
      action: 'login',
      collection: 'users',
      document: user.id,
      origin: { ...origin, user: user.id },
    });
    return made;
  });
  const ctx = createContext(cms, { user, overrideAccess: true });
  return { user: await presentDoc(ctx, users, user, 0), session };
}
