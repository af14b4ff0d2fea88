/**
 * Password-reset and invitation links (docs/accounts.md): a random 256-bit token in the link, only its sha256
 * stored, valid 1 hour (reset) or 7 days (invitation), single use. Spending one ends every other link of
 * the user too, since the password they were for has changed.
 */
import { randomBytes } from 'node:crypto';
import type { CMS } from '../cms.ts';
import type { Queryable } from '../db/store.ts';
import { hashToken } from './sessions.ts';

export type ResetKind = 'reset' | 'invite';
export const LINK_LIFETIME_MS: Record<ResetKind, number> = { reset: 60 * 60 * 1000, invite: 7 * 24 * 60 * 60 * 1000 };

export async function issueResetToken(
  db: Queryable,
  userId: number,
  kind: ResetKind,
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = now + LINK_LIFETIME_MS[kind];
  await db.run('DELETE FROM "_cms_reset_tokens" WHERE "expiresAt" <= ?', [now]);
  await db.run(
    'INSERT INTO "_cms_reset_tokens" ("tokenHash", "userId", "kind", "expiresAt", "createdAt") VALUES (?, ?, ?, ?, ?)',
    [hashToken(token), userId, kind, expiresAt, now],
  );
  return { token, expiresAt };
}

/** The user a live token is for, or null (unknown, used or expired); spends nothing. */
export async function findResetToken(
  db: Queryable,
  token: string,
  now: number,
): Promise<{ userId: number; kind: ResetKind } | null> {
  return db.get('SELECT "userId", "kind" FROM "_cms_reset_tokens" WHERE "tokenHash" = ? AND "expiresAt" > ?', [
    hashToken(token),
    now,
  ]);
}

/** Spends a live token and every other link of its user; false when another request spent it first. */
export async function spendResetToken(db: Queryable, token: string, userId: number, now: number): Promise<boolean> {
  const spent = await db.all(
    'DELETE FROM "_cms_reset_tokens" WHERE "tokenHash" = ? AND "expiresAt" > ? RETURNING "userId"',
    [hashToken(token), now],
  );
  if (spent.length === 0) return false;
  await db.run('DELETE FROM "_cms_reset_tokens" WHERE "userId" = ?', [userId]);
  return true;
}

/** `<serverURL or the request's own origin><routes.admin>/reset-password?token=<token>`. */
export function resetLink(cms: CMS, origin: string | null | undefined, token: string): string {
  const base = cms.config.serverURL ?? origin ?? '';
  return `${base}${cms.config.routes.admin}/reset-password?token=${encodeURIComponent(token)}`;
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * The origin a mailed link may carry, or null when none may be mailed. The request's origin comes from
 * headers anyone can set, so it is used only when its host is on `email.allowedHosts` or is a loopback
 * address (a link there leads nobody else anywhere); `serverURL` always wins (docs/accounts.md).
 */
export function mailLinkOrigin(cms: CMS, origin: string | null | undefined): string | null {
  if (cms.config.serverURL) return cms.config.serverURL;
  if (!origin) return null;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return null;
  }
  const allowed = cms.config.email?.allowedHosts ?? [];
  if (LOOPBACK.test(url.hostname) || allowed.includes(url.host) || allowed.includes(url.hostname)) return url.origin;
  return null;
}
