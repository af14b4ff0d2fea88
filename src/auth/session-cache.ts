/**
 * Session lookups kept in memory, so that a request of a known session (a bearer token, the admin's
 * cookie) costs no query: the session row, its user and whether the user must set up two-factor sign-in,
 * per token hash. An entry is used only while
 * - the change counters of `_cms_sessions`, `users` and `_cms_totp` (src/cache/change-counters.ts) are
 *   the ones read before it was looked up: a logout, an ended or refreshed session, a changed, deleted or
 *   deactivated user, a second factor set up or reset — by this process or any other — bumps one;
 * - the session has not expired by the clock, and its once-a-minute `lastUsedAt` mark is not due.
 * Anything else goes to the database as before. At most MAX_KEPT sessions, the oldest dropped first.
 */
import type { CMS } from '../cms.ts';
import type { User } from '../config/types.ts';
import { countersOf, sameCounters } from '../cache/change-counters.ts';
import { lastUsedMarkDue, type LiveSession } from './sessions.ts';

export type SessionLookup = { session: LiveSession; user: User; twoFactorSetupRequired: boolean };
type Kept = SessionLookup & { counters: number[] };

const TABLES = ['_cms_sessions', 'users', '_cms_totp'] as const;
const MAX_KEPT = 10_000;
const byInstance = new WeakMap<CMS, Map<string, Kept>>();

function keptOf(cms: CMS): Map<string, Kept> {
  let kept = byInstance.get(cms);
  if (!kept) byInstance.set(cms, (kept = new Map()));
  return kept;
}

/** The lookup of `tokenHash`, from memory when nothing it rests on changed, else from `lookUp` (null: no live session). */
export async function keptSessionLookup(cms: CMS, tokenHash: string, lookUp: () => Promise<SessionLookup | null>): Promise<SessionLookup | null> {
  const kept = keptOf(cms);
  // Read before looking up: a change committed meanwhile leaves what is kept already stale.
  const counters = await countersOf(cms.store, TABLES);
  const now = cms.clock.now();
  const entry = kept.get(tokenHash);
  // Each request gets its own copy of the user: rules and hooks receive it and may change it.
  if (entry && sameCounters(entry.counters, counters) && entry.session.expiresAt > now && !lastUsedMarkDue(entry.session.lastUsedAt, now)) {
    return { ...entry, user: structuredClone(entry.user) };
  }
  kept.delete(tokenHash);
  const found = await lookUp();
  if (!found) return null;
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(tokenHash, { ...found, user: structuredClone(found.user), counters });
  return found;
}
