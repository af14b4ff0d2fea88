/**
 * Everything that waits or compares times (sessions, locks, schedules, retries) reads this clock,
 * so tests can move time instead of sleeping.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests set and advance by hand. */
export function manualClock(start = Date.now()): Clock & { set(ms: number): void; advance(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    set: (ms: number) => {
      current = ms;
    },
    advance: (ms: number) => {
      current += ms;
    },
  };
}

export const isoNow = (clock: Clock) => new Date(clock.now()).toISOString();
