/**
 * When the sweep of upload leftovers runs (src/uploads/sweep-leftovers.ts): at every server start, then
 * daily by cms.clock from the job runner. The last sweep's time is kept in the database, in one row of
 * `_cms_jobs` (action `sweep-uploads`, state `recorded`: never claimed, listed or purged as a job), so a
 * restart neither repeats it needlessly nor, when servers restart more often than daily, skips it
 * forever; several processes share the one record.
 */
import type { CMS } from '../cms.ts';
import { isoNow } from '../clock.ts';
import { sweepUploadLeftovers } from '../uploads/sweep-leftovers.ts';

export const UPLOAD_SWEEP_INTERVAL_MS = 24 * 60 * 60 * 1000;
const ACTION = 'sweep-uploads';

function lastSweep(cms: CMS): number | null {
  const row = cms.sqlite.query<{ at: number | null }, [string]>('SELECT max("at") AS at FROM "_cms_jobs" WHERE "action" = ?').get(ACTION);
  return row?.at ?? null;
}

function recordSweep(cms: CMS, now: number): void {
  const iso = isoNow(cms.clock);
  const updated = cms.sqlite.query(`UPDATE "_cms_jobs" SET "at" = ?, "finishedAt" = ? WHERE "action" = ?`).run(now, iso, ACTION);
  if (updated.changes > 0) return;
  cms.sqlite.query(`INSERT INTO "_cms_jobs" ("action", "kind", "slug", "parent", "at", "state", "createdAt", "finishedAt") VALUES (?, 'system', 'uploads', 0, ?, 'recorded', ?, ?)`)
    .run(ACTION, now, iso, iso);
}

/** Sweeps when forced (start-up) or when a day has passed since the last sweep; never throws. */
export async function sweepUploadsIfDue(cms: CMS, options: { force?: boolean } = {}): Promise<void> {
  try {
    const now = cms.clock.now();
    const last = lastSweep(cms);
    if (!options.force && last !== null && now - last < UPLOAD_SWEEP_INTERVAL_MS) return;
    recordSweep(cms, now);
    await sweepUploadLeftovers(cms);
  } catch (error) {
    cms.log.warn('uploads: the sweep of leftovers failed:', error instanceof Error ? error.message : error);
  }
}
