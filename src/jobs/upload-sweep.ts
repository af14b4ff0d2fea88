/**
 * When the sweep of upload leftovers runs (src/uploads/sweep-leftovers.ts): at every server start, then
 * daily by cms.clock from the job runner. The last sweep's time (epoch ms) is kept in `_cms_settings`, so a
 * restart neither repeats it needlessly nor, when servers restart more often than daily, skips it
 * forever; several processes share the one record.
 */
import type { CMS } from '../cms.ts';
import { readSetting, writeSetting } from '../db/settings.ts';
import { sweepUploadLeftovers } from '../uploads/sweep-leftovers.ts';

export const UPLOAD_SWEEP_INTERVAL_MS = 24 * 60 * 60 * 1000;
const SETTING = 'uploads.lastSweepAt';

async function lastSweep(cms: CMS): Promise<number | null> {
  const value = await readSetting(cms.store, SETTING);
  return value !== null ? Number(value) : null;
}

/** Sweeps when forced (start-up) or when a day has passed since the last sweep; never throws. */
export async function sweepUploadsIfDue(cms: CMS, options: { force?: boolean } = {}): Promise<void> {
  try {
    const now = cms.clock.now();
    const last = await lastSweep(cms);
    const due = last === null || now - last >= UPLOAD_SWEEP_INTERVAL_MS;
    if (!due && !options.force) return;
    // A start-up sweep within a day of the recorded one leaves the record as it is: the daily sweep stays due
    // a day after that one, and a restart writes nothing to the database.
    if (due) await writeSetting(cms.store, SETTING, String(now));
    await sweepUploadLeftovers(cms);
  } catch (error) {
    cms.log.warn('uploads: the sweep of leftovers failed:', error instanceof Error ? error.message : error);
  }
}
