/**
 * Account security calls (docs/accounts.md): the signed-in user's own two-factor sign-in and sessions, and,
 * with `user` (admins), another user's; plus the reset links admins copy when there is no SMTP.
 */
import { api, queryString } from './api.ts';

export interface SessionInfo {
  id: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  userAgent: string | null;
  ip: string | null;
  current: boolean;
}

type UserId = string | number;

/** `?user=<id>` for another user's account (the server's `accountTarget`), nothing for one's own. */
const target = (user?: UserId) => queryString({ user });

export const account = {
  twoFactor: (user?: UserId) => api<{ enabled: boolean }>('GET', `/users/totp${target(user)}`),
  setupTwoFactor: () => api<{ secret: string; otpauthUrl: string }>('POST', '/users/totp/setup'),
  enableTwoFactor: (code: string) => api<{ recoveryCodes: string[] }>('POST', '/users/totp/enable', { code }),
  disableTwoFactor: (password: string) => api<unknown>('POST', '/users/totp/disable', { password }),
  /** An admin clears another user's second factor (a lost phone); no code is needed. */
  resetTwoFactor: (user: UserId) => api<unknown>('POST', `/users/totp/disable${target(user)}`, {}),
  sessions: (user?: UserId) => api<{ docs: SessionInfo[] }>('GET', `/users/sessions${target(user)}`),
  endSession: (id: string, user?: UserId) =>
    api<unknown>('DELETE', `/users/sessions/${encodeURIComponent(id)}${target(user)}`),
  /** Own: every session but this one. Another user's: all of them. */
  endOtherSessions: (user?: UserId) => api<{ ended: number }>('DELETE', `/users/sessions${target(user)}`),
  resetLink: (user: UserId) =>
    api<{ url: string; expiresAt: string }>('POST', `/users/${encodeURIComponent(String(user))}/reset-link`),
};
