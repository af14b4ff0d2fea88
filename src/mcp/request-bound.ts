/**
 * A bound on MCP requests per caller (an API key, else the session's user): `requestsPerMinute` in a
 * sliding minute read from the injectable clock; past it the answer is 429 with Retry-After. Kept in this
 * process: each instance bounds its own share.
 */
import type { CMS } from '../cms.ts';

const WINDOW_MS = 60_000;
const windows = new WeakMap<CMS, Map<string, number[]>>();

/** Seconds to wait before the next request is allowed, or 0 when this one is allowed (and counted). */
export function takeRequest(cms: CMS, caller: string, limit: number): number {
  let callers = windows.get(cms);
  if (!callers) windows.set(cms, (callers = new Map()));
  const now = cms.clock.now();
  if (callers.size > 1000)
    for (const [key, times] of callers) if (times[times.length - 1] <= now - WINDOW_MS) callers.delete(key);
  const recent = (callers.get(caller) ?? []).filter((at) => at > now - WINDOW_MS);
  if (recent.length >= limit) {
    callers.set(caller, recent);
    return Math.max(1, Math.ceil((recent[0] + WINDOW_MS - now) / 1000));
  }
  recent.push(now);
  callers.set(caller, recent);
  return 0;
}
