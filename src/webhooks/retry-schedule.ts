/**
 * When a failed delivery is tried again (docs/webhooks.md: 1 s, 5 s, then 1 min, 5 min, 30 min, 2 h, 6 h, 12 h)
 * and which failures are worth retrying. Pure; the unit tests read it directly.
 */
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Wait after attempt n (index n - 1). The first two are the quick, in-process retries. */
export const RETRY_DELAYS = [
  1 * SECOND,
  5 * SECOND,
  1 * MINUTE,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  6 * HOUR,
  12 * HOUR,
] as const;
export const QUICK_RETRIES = 2;
/** The first attempt plus one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS.length + 1;
/** A `sending` row whose process stopped is taken over after this long (docs/webhooks.md). */
export const SENDING_LEASE_MS = 5 * MINUTE;

/**
 * Real-time settings of this process. Tests shorten them (and restore them); nothing else should change them.
 * `quickRetryDelays` are real timer delays: the stored `nextAttemptAt` of a row waiting for a quick retry still
 * says 1 s / 5 s on `cms.clock`, so a job loop elsewhere takes it if this process stops.
 */
export const webhookTiming = {
  quickRetryDelays: [RETRY_DELAYS[0], RETRY_DELAYS[1]] as number[],
  timeoutMs: 10 * SECOND,
};

export type RetryStep = { delay: number; quick: boolean };

/** What follows a failed attempt number `attempts` (1-based): the next wait, or null when it was the last one. */
export function nextRetry(attempts: number): RetryStep | null {
  if (attempts < 1 || attempts >= MAX_ATTEMPTS) return null;
  return { delay: RETRY_DELAYS[attempts - 1], quick: attempts <= QUICK_RETRIES };
}

/** Timeouts and network errors are retried too; they are not answers, so they never reach this. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
