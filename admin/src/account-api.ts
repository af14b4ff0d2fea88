/** The signed-in user's own security settings: two-factor sign-in and sessions (docs/accounts.md). */
import { api } from './api.ts'

export interface SessionInfo {
  id: string
  createdAt: string
  lastUsedAt: string
  expiresAt: string
  userAgent: string | null
  ip: string | null
  current: boolean
}

export const account = {
  twoFactor: () => api<{ enabled: boolean }>('GET', '/users/totp'),
  setupTwoFactor: () => api<{ secret: string; otpauthUrl: string }>('POST', '/users/totp/setup'),
  enableTwoFactor: (code: string) => api<{ recoveryCodes: string[] }>('POST', '/users/totp/enable', { code }),
  disableTwoFactor: (password: string) => api<unknown>('POST', '/users/totp/disable', { password }),
  sessions: () => api<{ docs: SessionInfo[] }>('GET', '/users/sessions'),
  endSession: (id: string) => api<unknown>('DELETE', `/users/sessions/${encodeURIComponent(id)}`),
  endOtherSessions: () => api<{ ended: number }>('DELETE', '/users/sessions'),
}
