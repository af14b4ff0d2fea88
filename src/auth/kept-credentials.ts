/**
 * Credential lookups kept in memory, so that a request of a known session (a bearer token, the admin's
 * cookie) or API key costs no query: what the lookup found (the session row or the key's scopes, the
 * user, whether the user must set up two-factor sign-in), per token or key hash. An entry is used only
 * while
 * - the change counters of the tables it was read from (src/cache/change-counters.ts) are the ones read
 *   before it was looked up: a logout, an ended or refreshed session, a changed or deleted key, a
 *   changed, deleted or deactivated user, a second factor set up or reset — by this process or any
 *   other — bumps one;
 * - it is still good by the clock (`stillGood`: a session not expired and its once-a-minute `lastUsedAt`
 *   mark not due; a key not expired).
 * Anything else goes to the database as before. At most MAX_KEPT of each kind, the oldest dropped first.
 */
import type { CMS } from '../cms.ts';
import type { User } from '../config/types.ts';
import { countersOf, sameCounters, type Reading } from '../cache/change-counters.ts';
import { lastUsedMarkDue, type LiveSession } from './sessions.ts';
import { copyPlainData } from '../fields/plain-data.ts';

export type SessionLookup = { session: LiveSession; user: User; twoFactorSetupRequired: boolean };
export type ApiKeyLookup = { user: User; scopes: string[]; expiresAt: number | null; keyId: number };

type Kind<T extends { user: User }> = { tables: readonly string[]; stillGood(found: T, now: number): boolean };
const SESSIONS: Kind<SessionLookup> = {
  tables: ['_cms_sessions', 'users', '_cms_totp'],
  stillGood: ({ session }, now) => session.expiresAt > now && !lastUsedMarkDue(session.lastUsedAt, now),
};
const API_KEYS: Kind<ApiKeyLookup> = {
  tables: ['api-keys', 'users'],
  stillGood: ({ expiresAt }, now) => expiresAt === null || expiresAt > now,
};

const MAX_KEPT = 10_000;
type Kept = { found: { user: User }; counters: number[] };
const byInstance = new WeakMap<CMS, Map<Kind<any>, Map<string, Kept>>>();

function keptOf(cms: CMS, kind: Kind<any>): Map<string, Kept> {
  let kinds = byInstance.get(cms);
  if (!kinds) byInstance.set(cms, (kinds = new Map()));
  let kept = kinds.get(kind);
  if (!kept) kinds.set(kind, (kept = new Map()));
  return kept;
}

/** `reading`: the change counters, read before looking up (a change committed meanwhile leaves what is kept already stale). */
async function keptLookup<T extends { user: User }>(
  cms: CMS,
  kind: Kind<T>,
  hash: string,
  lookUp: () => Promise<T | null>,
  reading: Promise<Reading>,
): Promise<T | null> {
  const kept = keptOf(cms, kind);
  const counters = await countersOf(reading, kind.tables);
  const entry = kept.get(hash);
  // Each request gets its own copy of the user: rules and hooks receive it and may change it.
  if (entry && sameCounters(entry.counters, counters) && kind.stillGood(entry.found as T, cms.clock.now())) {
    return { ...(entry.found as T), user: copyPlainData(entry.found.user) };
  }
  kept.delete(hash);
  const found = await lookUp();
  if (!found) return null;
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(hash, { found: { ...found, user: copyPlainData(found.user) }, counters });
  return found;
}

/** The session of `tokenHash`, kept or from `lookUp` (null: no live session); `reading` as authenticate takes it. */
export const keptSessionLookup = (
  cms: CMS,
  tokenHash: string,
  lookUp: () => Promise<SessionLookup | null>,
  reading: Promise<Reading>,
) => keptLookup(cms, SESSIONS, tokenHash, lookUp, reading);

/** The API key of `keyHash`, kept or from `lookUp` (which throws for an unknown or expired key); checked against a fresh reading. */
export const keptApiKeyLookup = (cms: CMS, keyHash: string, lookUp: () => Promise<ApiKeyLookup>) =>
  keptLookup(cms, API_KEYS, keyHash, lookUp, cms.store.changeCounters({ exact: true })) as Promise<ApiKeyLookup>;
