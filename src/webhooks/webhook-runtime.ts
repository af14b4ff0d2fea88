/**
 * What the webhook machinery of one instance holds in memory: the send limiter, this process's delivery
 * chains (first attempt + quick retries), their timers, and the requests in flight, so `flushWebhooks`
 * can wait for them and shutdown can stop them. Everything durable is in the table, never here.
 */
import type { CMS } from '../cms.ts';
import { createSendLimiter, type SendLimiter } from './send-limiter.ts';

/** Sends at once, per process. */
export const MAX_CONCURRENT_SENDS = 8;
/**
 * Deliveries this process sends itself (queued, in flight, or waiting for a quick retry) at most; beyond it, new
 * ones are stored due at once for the job loop, so a burst of writes against a hanging receiver cannot grow
 * memory without bound.
 */
export const MAX_QUEUED_SENDS = 1000;

export type WebhookRuntime = {
  cms: CMS;
  limiter: SendLimiter;
  /** First attempts and quick retries of this process (what `flushWebhooks` waits for). */
  chains: Set<Promise<unknown>>;
  /** Job-loop runs in progress (waited for on close). */
  runs: Set<Promise<unknown>>;
  /** Requests in flight, aborted on close. */
  sends: Set<AbortController>;
  /** Quick-retry waits, cut short on close. */
  waits: Set<() => void>;
  closed: boolean;
};

const runtimes = new WeakMap<CMS, WebhookRuntime>();

export function webhookRuntime(cms: CMS): WebhookRuntime {
  let runtime = runtimes.get(cms);
  if (!runtime) {
    runtime = {
      cms,
      limiter: createSendLimiter(MAX_CONCURRENT_SENDS),
      chains: new Set(),
      runs: new Set(),
      sends: new Set(),
      waits: new Set(),
      closed: false,
    };
    runtimes.set(cms, runtime);
  }
  return runtime;
}

/** Keeps a promise in `set` until it settles. */
export function track<T>(set: Set<Promise<unknown>>, promise: Promise<T>): Promise<T> {
  set.add(promise);
  promise.finally(() => set.delete(promise)).catch(() => {});
  return promise;
}

/** A real-time wait that shutdown cuts short; resolves false when cut. */
export function wait(runtime: WebhookRuntime, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (completed: boolean) => {
      clearTimeout(timer);
      runtime.waits.delete(cut);
      resolve(completed);
    };
    const cut = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    runtime.waits.add(cut);
  });
}

/** Stops sending: aborts requests in flight (their rows go back to pending), ends waits, and waits for all of it to settle. */
export async function stopWebhookRuntime(runtime: WebhookRuntime): Promise<void> {
  runtime.closed = true;
  for (const controller of runtime.sends) controller.abort();
  for (const cut of [...runtime.waits]) cut();
  while (runtime.chains.size || runtime.runs.size) await Promise.allSettled([...runtime.chains, ...runtime.runs]);
}
