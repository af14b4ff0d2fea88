/**
 * At most `size` statements or transactions on the pool at once, the others waiting their turn in order,
 * each for `waitMs` at most. Bun.SQL would queue them itself, without a bound: under a pool that stays
 * busy (slow statements, a stuck transaction) every request would hang until its client gave up. Here a
 * request that cannot get a connection in time is answered 503 with `Retry-After` instead.
 */
import { unavailable } from '../../errors.ts';

/** How long a statement waits for a pool connection before its request is answered 503. */
export const POOL_WAIT_MS = 5000;

export type PoolGate = (<T>(work: () => Promise<T>) => Promise<T>) & {
  /** Connections taken now (statements and transactions running), for `GET /metrics`. */
  inUse(): number;
};

export function poolGate(size: number, waitMs = POOL_WAIT_MS): PoolGate {
  let busy = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy--;
  };
  const acquire = () => {
    if (busy < size) {
      busy++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(turn), 1);
        reject(unavailable('Every database connection is busy; retry shortly.'));
      }, waitMs);
      waiting.push(turn);
    });
  };
  const gate = async <T>(work: () => Promise<T>): Promise<T> => {
    await acquire();
    try {
      return await work();
    } finally {
      release();
    }
  };
  return Object.assign(gate, { inUse: () => busy });
}
