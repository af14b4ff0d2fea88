/**
 * A bound on MCP messages per caller (an API key, else the session's user): `requestsPerMinute` in a
 * sliding minute read from the injectable clock; past it the answer is 429 with Retry-After. Each message
 * of a JSON-RPC batch counts, so a batch cannot run more calls than as many single requests could. Kept in
 * this process: each instance bounds its own share.
 *
 * A caller's times are kept oldest first, with the index of the first one still inside the minute: a
 * message costs the same whether the bound is 60 or a billion a minute (a filter over the whole minute's
 * times made every call of a busy caller pay for all the calls before it).
 */
import type { CMS } from '../cms.ts';

const WINDOW_MS = 60_000;

/** `times[start..]` are the caller's counted messages inside the window, oldest first. */
type Window = { times: number[]; start: number };

const windows = new WeakMap<CMS, Map<string, Window>>();

/** Moves the window's start past the times that left the minute, and drops them once they are half the array. */
function slide(window: Window, now: number): void {
  const { times } = window;
  while (window.start < times.length && times[window.start]! <= now - WINDOW_MS) window.start++;
  if (window.start > 64 && window.start * 2 > times.length) {
    times.splice(0, window.start);
    window.start = 0;
  }
}

/**
 * Seconds to wait before `count` more messages are allowed, or 0 when they are allowed (and then counted,
 * unless `record` is false: a look before reading the body, so a caller already at the bound costs nothing).
 */
export function takeMessages(cms: CMS, caller: string, limit: number, count: number, record = true): number {
  let callers = windows.get(cms);
  if (!callers) windows.set(cms, (callers = new Map()));
  const now = cms.clock.now();
  if (callers.size > 1000)
    for (const [key, window] of callers)
      if (window.times[window.times.length - 1]! <= now - WINDOW_MS) callers.delete(key);
  let window = callers.get(caller);
  if (!window) callers.set(caller, (window = { times: [], start: 0 }));
  slide(window, now);
  const recent = window.times.length - window.start;
  if (recent + count > limit) {
    // When enough of the counted messages will have left the window (a batch larger than the bound never fits).
    const freed = window.times[window.start + Math.min(recent - 1, Math.max(0, recent + count - limit - 1))];
    return Math.max(1, Math.ceil(((freed ?? now) + WINDOW_MS - now) / 1000));
  }
  if (!record) return 0;
  // A clock set back would put a time after later ones: the times stay in order.
  const sorted = !(window.times[window.times.length - 1]! > now);
  for (let i = 0; i < count; i++) window.times.push(now);
  if (!sorted) window.times.sort((a, b) => a - b);
  return 0;
}
