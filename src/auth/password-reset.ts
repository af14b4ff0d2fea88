/**
 * Forgot password, invitations and admin-made reset links (docs/accounts.md); setting the new password
 * is operations/reset-password.ts.
 *
 * Forgot-password answers the same, in the same time, whether or not the email has an account: after the
 * throttle (which every request passes through alike) the answer goes at once, and the lookup, the token
 * and the mail happen afterwards in the background, so no part of the answer's timing depends on the user.
 */
import type { CMS } from '../cms.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../errors.ts';
import { rowToDoc } from '../fields/row.ts';
import type { User } from '../config/types.ts';
import type { OperationContext } from '../operation-context.ts';
import { isFullAdmin } from '../access/key-limits.ts';
import { sendEmailLater, emailConfigured } from '../email/send-email.ts';
import { invitationEmail, resetPasswordEmail } from '../email/account-emails.ts';
import { countRequest, forgotPasswordLockKeys } from './login-lock.ts';
import { issueResetToken, LINK_LIFETIME_MS, mailLinkOrigin, resetLink } from './reset-tokens.ts';
import { findUserRowByEmail } from './load-user.ts';

export const FORGOT_ANSWER = 'If this email belongs to an account, a link to reset its password is on its way.';
export const INVALID_LINK = 'This link is not valid or has expired. Ask for a new one.';
const INVITE_DAYS = LINK_LIFETIME_MS.invite / 86_400_000;

export async function forgotPassword(
  cms: CMS,
  input: { email?: unknown; ip: string | null; origin?: string | null },
): Promise<void> {
  if (typeof input.email !== 'string' || !input.email.trim()) throw badRequest('Email is required.', 'email');
  const email = input.email.trim().toLowerCase();
  await countRequest(cms, forgotPasswordLockKeys(cms, email, input.ip));
  // Without mail nobody could read the link; admins make one instead (POST /users/:id/reset-link).
  if (!emailConfigured(cms)) return;
  const linkOrigin = mailLinkOrigin(cms, input.origin);
  if (!linkOrigin) {
    cms.log.warn(
      `forgot-password: no mail sent, the request's host is not one a link may point at: set serverURL or email.allowedHosts (docs/accounts.md)`,
    );
    return;
  }
  cms.background.run('forgot-password', async () => {
    const users = cms.config.collectionsBySlug.get('users')!;
    const row = await findUserRowByEmail(cms, email);
    if (!row || (rowToDoc(users, row) as User).active === false) return;
    const { token } = await issueResetToken(cms.store, row.id as number, 'reset', cms.clock.now());
    sendEmailLater(cms, resetPasswordEmail(email, resetLink(cms, linkOrigin, token)));
  });
}

/** A user made without a password gets an invitation link (7 days), mailed when email is configured. */
export async function inviteNewUser(
  ctx: OperationContext,
  user: { id: number; email: string },
): Promise<{ inviteUrl: string }> {
  const { cms } = ctx;
  const { token } = await issueResetToken(cms.store, user.id, 'invite', cms.clock.now());
  const inviteUrl = resetLink(cms, ctx.origin, token);
  // The answer goes to the admin who asked; the mail only with an origin no request header chose.
  const linkOrigin = mailLinkOrigin(cms, ctx.origin);
  if (linkOrigin) sendEmailLater(cms, invitationEmail(user.email, resetLink(cms, linkOrigin, token), INVITE_DAYS));
  else if (emailConfigured(cms))
    cms.log.warn(
      `invitation for user ${user.id}: not mailed, set serverURL or email.allowedHosts (docs/accounts.md); the admin can copy the link`,
    );
  return { inviteUrl };
}

/** `POST /users/:id/reset-link` (admins): a fresh link to copy; an invitation's lifetime while the user has no password yet. */
export async function createResetLink(ctx: OperationContext, id: number): Promise<{ url: string; expiresAt: string }> {
  if (!ctx.user) throw unauthorized();
  if (!isFullAdmin(ctx.user, ctx.scopes)) throw forbidden('Only admins can make reset links.');
  const row = await ctx.cms.store.get<{ id: number; passwordHash: string | null }>(
    'SELECT "id", "passwordHash" FROM "users" WHERE "id" = ?',
    [id],
  );
  if (!row) throw notFound('User not found.');
  const { token, expiresAt } = await issueResetToken(
    ctx.cms.store,
    row.id,
    row.passwordHash ? 'reset' : 'invite',
    ctx.cms.clock.now(),
  );
  return { url: resetLink(ctx.cms, ctx.origin, token), expiresAt: new Date(expiresAt).toISOString() };
}
