/**
 * The in-process job loop of a long-running server: one run shortly after the first answer (jobs that fell
 * due while the server was down), then one a minute on a real timer; due-ness is read from cms.clock. A tick while a
 * run is still going is skipped, so two runs never overlap. `stop` waits for the run in flight.
 * The first run also sweeps upload leftovers of a crash (docs/operations.md); later runs do so daily.
 * A scheduled backup that fell due starts beside the runs, not inside one, so a long backup never holds
 * up scheduled publishing; `stop` aborts it (its partial file is removed) and waits for it.
 */
import type { CMS } from '../cms.ts';
import { runJobs } from './run-jobs.ts';
import { runScheduledBackupIfDue } from './scheduled-backup.ts';
import { sweepUploadsIfDue } from './upload-sweep.ts';

export const JOB_LOOP_INTERVAL_MS = 60_000;
/**
 * The start-up run waits this long after the first answer (`firstAnswer`): a server is usually asked
 * something the moment it listens (a health check, the first page), and the run's SQL and folder walk on
 * the one JS thread would otherwise hold that answer up. Without `firstAnswer` the delay counts from the start.
 */
export const FIRST_RUN_DELAY_MS = 250;
/** A server nobody asks runs its start-up run this long after it starts. */
export const FIRST_RUN_LATEST_MS = 5_000;

export function startJobLoop(
  cms: CMS,
  intervalMs = JOB_LOOP_INTERVAL_MS,
  firstAnswer?: Promise<unknown>,
): { stop(): Promise<void> } {
  const firstRunDelayMs = Math.min(FIRST_RUN_DELAY_MS, intervalMs);
  let running: Promise<void> | null = null;
  let stopped = false;
  let started = false;
  let backup: Promise<unknown> | null = null;
  const aborts = new AbortController();
  const tick = () => {
    if (running || stopped) return;
    const atStart = !started;
    started = true;
    running = (async () => {
      await runJobs(cms).catch((error) => cms.log.error('job runner failed:', error));
      await sweepUploadsIfDue(cms, { force: atStart });
      backup ??= runScheduledBackupIfDue(cms, aborts.signal).finally(() => {
        backup = null;
      });
    })().finally(() => {
      running = null;
    });
  };
  const timer = setInterval(tick, intervalMs);
  let first: Timer | undefined;
  const schedule = (ms: number) => {
    if (stopped || started) return;
    clearTimeout(first);
    first = setTimeout(tick, ms);
  };
  if (firstAnswer) {
    schedule(Math.min(FIRST_RUN_LATEST_MS, intervalMs));
    void firstAnswer.then(() => schedule(firstRunDelayMs));
  } else schedule(firstRunDelayMs);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      clearTimeout(first);
      aborts.abort();
      await running;
      await backup;
    },
  };
}
