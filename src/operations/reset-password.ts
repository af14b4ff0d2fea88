/** `POST /users/reset-password`: a new password through a reset or invitation link, then signed in (docs/accounts.md). */
import type { CMS } from '../cms.ts';
import type { Via } from '../events/change-events.ts';
import { badRequest } from '../errors.ts';
import { passwordProblem } from '../auth/password.ts';
import { createSession, type SessionClient } from '../auth/sessions.ts';
import { checkAttempt, loginLockKeys } from '../auth/login-lock.ts';
import { findResetToken, spendResetToken } from '../auth/reset-tokens.ts';
import { loadUser } from '../auth/load-user.ts';
import { enabledSecondFactor, requireSecondFactor } from '../auth/two-factor.ts';
import { INVALID_LINK } from '../auth/password-reset.ts';
import { createContext } from '../operation-context.ts';
import { update } from './update.ts';
import type { LoginResult } from './login.ts';

/**
 * Sets a new password with a link's token: spends the token, ends every session (the password changed),
 * and signs in. A user with two-factor sign-in on also sends `code`, as at login.
 */
export async function resetPassword(
  cms: CMS,
  input: { token?: unknown; password?: unknown; code?: unknown; client: SessionClient; via?: Via },
): Promise<LoginResult> {
  if (typeof input.token !== 'string' || !input.token) throw badRequest(INVALID_LINK, 'token');
  const now = cms.clock.now();
  const found = await findResetToken(cms.store, input.token, now);
  const user = found ? await loadUser(cms, found.userId) : null;
  if (!found || !user) throw badRequest(INVALID_LINK, 'token');
  const problem = passwordProblem(input.password);
  if (problem) throw badRequest(problem, 'password');
  const totp = await enabledSecondFactor(cms.store, user.id);
  if (totp) {
    await checkAttempt(cms, loginLockKeys(cms, user.email, input.client.ip ?? null), () =>
      requireSecondFactor(cms, user.id, totp, input.code),
    );
  }
  const token = input.token;
  if (!(await cms.store.transaction((tx) => spendResetToken(tx, token, user.id, now))))
    throw badRequest(INVALID_LINK, 'token');
  const ctx = createContext(cms, { user, overrideAccess: true, via: input.via ?? 'rest', ip: input.client.ip ?? null });
  const doc = await update(ctx, { collection: 'users', id: user.id, data: { password: input.password }, depth: 0 });
  return { user: doc, session: await createSession(cms, user.id, input.client) };
}
