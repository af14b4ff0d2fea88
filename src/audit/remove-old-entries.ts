/** Retention: the job loop removes entries older than `audit.keepDays` (read from the injectable clock). */
import type { CMS } from '../cms.ts';
import { AUDIT_TABLE } from './write-entry.ts';

const DAY_MS = 86_400_000;

export async function removeOldAuditEntries(cms: CMS): Promise<number> {
  if (!cms.config.audit) return 0;
  const cutoff = new Date(cms.clock.now() - cms.config.audit.keepDays * DAY_MS).toISOString();
  return (await cms.store.run(`DELETE FROM "${AUDIT_TABLE}" WHERE "at" < ?`, [cutoff])).changes;
}
