/**
 * A bound on MCP messages per caller (an API key, else the session's user): `requestsPerMinute` in a
 * sliding minute read from the injectable clock; past it the answer is 429 with Retry-After. Each message
 * of a JSON-RPC batch counts, so a batch cannot run more calls than as many single requests could. Kept in
 * this process: each instance bounds its own share.
 */
import type { CMS } from '../cms.ts';

const WINDOW_MS = 60_000;
const windows = new WeakMap<CMS, Map<string, number[]>>();

/**
 * Seconds to wait before `count` more messages are allowed, or 0 when they are allowed (and then counted,
 * unless `record` is false: a look before reading the body, so a caller already at the bound costs nothing).
 */
export function takeMessages(cms: CMS, caller: string, limit: number, count: number, record = true): number {
  let callers = windows.get(cms);
  if (!callers) windows.set(cms, (callers = new Map()));
  const now = cms.clock.now();
  if (callers.size > 1000)
    for (const [key, times] of callers) if (times[times.length - 1] <= now - WINDOW_MS) callers.delete(key);
  const recent = (callers.get(caller) ?? []).filter((at) => at > now - WINDOW_MS);
  if (recent.length + count > limit) {
    callers.set(caller, recent);
    // When enough of the counted messages will have left the window (a batch larger than the bound never fits).
    const freed = recent[Math.min(recent.length - 1, Math.max(0, recent.length + count - limit - 1))];
    return Math.max(1, Math.ceil(((freed ?? now) + WINDOW_MS - now) / 1000));
  }
  if (record) for (let i = 0; i < count; i++) recent.push(now);
  callers.set(caller, recent);
  return 0;
}
