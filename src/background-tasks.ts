/**
 * Work that runs after the answer has gone (mail, the lookup behind forgot-password): the request never
 * waits for it, a failure is logged instead of reaching the client, and `close()` waits for what is still
 * running so a shutdown does not cut a mail in half. Tests await `idle()` instead of sleeping.
 */
import type { Logger } from './logger.ts';

export type BackgroundTasks = {
  /** Starts `work` on a later tick; `name` labels a failure in the log. */
  run(name: string, work: () => Promise<void>): void;
  /** Resolves once nothing started so far (or started by it) is still running. */
  idle(): Promise<void>;
};

export function createBackgroundTasks(log: Logger): BackgroundTasks {
  const running = new Set<Promise<void>>();
  return {
    run(name, work) {
      const task = new Promise<void>((resolve) => setTimeout(resolve, 0))
        .then(work)
        .catch((error) => log.error(`${name} failed:`, error instanceof Error ? error.message : error))
        .finally(() => running.delete(task));
      running.add(task);
    },
    async idle() {
      while (running.size) await Promise.all([...running]);
    },
  };
}
