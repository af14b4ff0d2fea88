/**
 * Sessions: a random 256-bit token given to the client (cookie `cms-session` or bearer); only its sha256
 * is stored. Each session has its own CSRF token, a public random `id` for the sessions list, and the
 * user agent and address it was made from (docs/accounts.md).
 */
import { randomBytes } from 'node:crypto';
import type { CMS } from '../cms.ts';
import type { Queryable } from '../db/store.ts';
import { notFound } from '../errors.ts';

export type Session = { token: string; csrfToken: string; userId: number; expiresAt: number };
/** Where a session is made from, as the transport saw it. */
export type SessionClient = { userAgent?: string | null; ip?: string | null };
/** `lastUsedAt`: as stored once this lookup is done (it may have just written it). */
export type LiveSession = { id: string; userId: number; csrfToken: string; expiresAt: number; lastUsedAt: number };

/** `lastUsedAt` is written at most this often per session, so reading with a session is not a write each time. */
export const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_USER_AGENT = 512;

/** SHA-256 in hex: Bun's own, a third of `node:crypto`'s Hash object for a token this short. */
export const hashToken = (token: string) => Bun.SHA256.hash(token, 'hex');

/** `db`: the transaction to write in, when the session is part of a larger write (a login and its audit entry). */
export async function createSession(
  cms: CMS,
  userId: number,
  client: SessionClient = {},
  db: Queryable = cms.store,
): Promise<Session> {
  const token = randomBytes(32).toString('base64url');
  const csrfToken = randomBytes(32).toString('base64url');
  const now = cms.clock.now();
  const expiresAt = now + cms.config.auth.tokenExpiration * 1000;
  await db.run('DELETE FROM "_cms_sessions" WHERE "expiresAt" <= ?', [now]);
  await db.run(
    `INSERT INTO "_cms_sessions" ("tokenHash", "id", "userId", "csrfToken", "expiresAt", "createdAt", "lastUsedAt", "userAgent", "ip")
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      hashToken(token),
      randomBytes(16).toString('hex'),
      userId,
      csrfToken,
      expiresAt,
      now,
      now,
      client.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
      client.ip ?? null,
    ],
  );
  return { token, csrfToken, userId, expiresAt };
}

/** The live session for a token, or null (unknown or expired); marks it used when the last mark is a minute old. */
export async function findSession(cms: CMS, token: string): Promise<LiveSession | null> {
  const now = cms.clock.now();
  const tokenHash = hashToken(token);
  const row = await cms.store.get<LiveSession & { lastUsedAt: number | null }>(
    'SELECT "id", "userId", "csrfToken", "expiresAt", "lastUsedAt" FROM "_cms_sessions" WHERE "tokenHash" = ? AND "expiresAt" > ?',
    [tokenHash, now],
  );
  if (!row) return null;
  let lastUsedAt = row.lastUsedAt === null ? null : Number(row.lastUsedAt);
  if (lastUsedMarkDue(lastUsedAt, now)) {
    const stale = now - LAST_USED_RESOLUTION_MS;
    // The condition makes concurrent requests of one session write once.
    await cms.store.run(
      'UPDATE "_cms_sessions" SET "lastUsedAt" = ? WHERE "tokenHash" = ? AND ("lastUsedAt" IS NULL OR "lastUsedAt" <= ?)',
      [now, tokenHash, stale],
    );
    lastUsedAt = now;
  }
  return {
    id: row.id,
    userId: row.userId,
    csrfToken: row.csrfToken,
    expiresAt: Number(row.expiresAt),
    lastUsedAt: lastUsedAt!,
  };
}

/** Whether a session last marked used at `lastUsedAt` is due a new mark at `now`. */
export function lastUsedMarkDue(lastUsedAt: number | null, now: number): boolean {
  return lastUsedAt === null || lastUsedAt <= now - LAST_USED_RESOLUTION_MS;
}

/** Extends a live session by `auth.tokenExpiration` from now (Payload's refresh); null when the token names none. */
export async function refreshSession(cms: CMS, token: string): Promise<{ expiresAt: number } | null> {
  const now = cms.clock.now();
  const expiresAt = now + cms.config.auth.tokenExpiration * 1000;
  const changed = await cms.store.run(
    'UPDATE "_cms_sessions" SET "expiresAt" = ? WHERE "tokenHash" = ? AND "expiresAt" > ?',
    [expiresAt, hashToken(token), now],
  );
  return changed.changes ? { expiresAt } : null;
}

export async function endSession(cms: CMS, token: string): Promise<void> {
  await cms.store.run('DELETE FROM "_cms_sessions" WHERE "tokenHash" = ?', [hashToken(token)]);
}

/** `db` is the store, or the `tx` of the user change that ends them. */
export async function endUserSessions(db: Queryable, userId: number): Promise<void> {
  await db.run('DELETE FROM "_cms_sessions" WHERE "userId" = ?', [userId]);
}

type SessionRow = {
  id: string;
  createdAt: number;
  lastUsedAt: number | null;
  expiresAt: number;
  userAgent: string | null;
  ip: string | null;
};
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

/** A user's live sessions, most recently used first, as `GET /users/sessions` shows them. */
export async function listSessions(cms: CMS, userId: number, currentId: string | null) {
  const rows = await cms.store.all<SessionRow>(
    `SELECT "id", "createdAt", "lastUsedAt", "expiresAt", "userAgent", "ip" FROM "_cms_sessions"
    WHERE "userId" = ? AND "expiresAt" > ? ORDER BY COALESCE("lastUsedAt", "createdAt") DESC, "createdAt" DESC`,
    [userId, cms.clock.now()],
  );
  return rows.map((r) => ({
    id: r.id,
    createdAt: iso(r.createdAt),
    lastUsedAt: iso(r.lastUsedAt ?? r.createdAt),
    expiresAt: iso(r.expiresAt),
    userAgent: r.userAgent,
    ip: r.ip,
    current: r.id === currentId,
  }));
}

/** Ends one session of `userId` by its public id; another user's id is a 404 like an unknown one. `db`: the store or a `tx`. */
export async function endSessionById(db: Queryable, userId: number, id: string): Promise<void> {
  const { changes } = await db.run('DELETE FROM "_cms_sessions" WHERE "id" = ? AND "userId" = ?', [id, userId]);
  if (changes === 0) throw notFound('Session not found.');
}

/** Ends every session of `userId` but `keepId` (the caller's own, when it is theirs); the number ended. */
export async function endOtherSessions(db: Queryable, userId: number, keepId: string | null): Promise<number> {
  const { changes } =
    keepId === null
      ? await db.run('DELETE FROM "_cms_sessions" WHERE "userId" = ?', [userId])
      : await db.run('DELETE FROM "_cms_sessions" WHERE "userId" = ? AND "id" <> ?', [userId, keepId]);
  return changes;
}
