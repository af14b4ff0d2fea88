/**
 * Scheduled backups (`backups.schedule`, docs/operations.md), started by the job loop. Each slot of the schedule
 * (UTC, read from cms.clock) that fell due since the last run starts one backup, then retention keeps the
 * newest `backups.keep`. The last run's time lives in `_cms_settings`, so restarts neither repeat a slot
 * nor skip one; several processes on one database claim the slot with a compare-and-set, so one of them
 * runs it. The very first check only records the time: the first backup comes at the next slot.
 */
import type { CMS } from '../cms.ts';
import { offerSetting, readSetting } from '../db/settings.ts';
import type { BackupResult } from '../backups/create-backup.ts';
import { fellDueBetween } from '../config/cron-schedule.ts';

const SETTING = 'backups.lastRunAt';

export async function runScheduledBackupIfDue(cms: CMS, signal?: AbortSignal): Promise<BackupResult | null> {
  const schedule = cms.config.backups.schedule;
  if (!schedule) return null;
  // Loaded only with a schedule: the backup modules (tar, gzip, the S3 target) stay out of other servers.
  const { createBackup, runningBackup } = await import('../backups/create-backup.ts');
  if (runningBackup(cms)) return null;
  try {
    const now = cms.clock.now();
    const last = await readSetting(cms.store, SETTING);
    if (last === null) {
      await offerSetting(cms.store, SETTING, String(now));
      return null;
    }
    if (!fellDueBetween(schedule, Number(last), now)) return null;
    const claimed = await cms.store.run('UPDATE "_cms_settings" SET "value" = ? WHERE "key" = ? AND "value" = ?', [
      String(now),
      SETTING,
      last,
    ]);
    if (claimed.changes !== 1) return null;
    const backup = await createBackup(cms, { signal });
    cms.log.info(`backup written: ${backup.name} (${backup.size} bytes) to ${backup.where}`);
    return backup;
  } catch (error) {
    cms.log.error('scheduled backup failed:', error instanceof Error ? error.message : error);
    return null;
  }
}
