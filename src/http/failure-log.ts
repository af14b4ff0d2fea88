/**
 * Each distinct failure is logged once per minute, not once per request: during an outage every request
 * fails the same way, and a stack per request buried the log (tens of MB a minute) without saying more.
 * The first occurrence is logged in full; the next one after the minute says how many were left out.
 */
import type { CMS } from '../cms.ts';

export const FAILURE_LOG_INTERVAL_MS = 60_000;
/** Distinct failures remembered per instance; past this the oldest is forgotten (and may be logged again). */
const REMEMBERED = 200;

type Seen = { at: number; left: number };
const seenBy = new WeakMap<CMS, Map<string, Seen>>();

/** `key`: what makes two failures the same; `details`: what to log with its first occurrence. */
export function logFailure(cms: CMS, key: string, ...details: unknown[]): void {
  let seen = seenBy.get(cms);
  if (!seen) seenBy.set(cms, (seen = new Map()));
  const now = cms.clock.now();
  const last = seen.get(key);
  if (last && now - last.at < FAILURE_LOG_INTERVAL_MS) {
    last.left++;
    return;
  }
  seen.delete(key);
  seen.set(key, { at: now, left: 0 });
  if (seen.size > REMEMBERED) seen.delete(seen.keys().next().value!);
  const repeats = last?.left ? ` (${last.left} more since ${new Date(last.at).toISOString()} not logged)` : '';
  cms.log.error(`${key}${repeats}`, ...details);
}
