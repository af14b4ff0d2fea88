/**
 * Retention: the job loop removes entries older than `audit.keepDays` (read from the injectable clock).
 * Ids follow time, so the old entries are the lowest ids: everything before the first entry still inside
 * the window goes, found by walking the primary key from its start (one row when nothing is due). An
 * entry is never removed early; one written with an earlier time than an entry before it (a clock set
 * back) waits until the entries before it are due too.
 */
import type { CMS } from '../cms.ts';
import { AUDIT_TABLE } from './write-entry.ts';

const DAY_MS = 86_400_000;

const REMOVE_BEFORE_WINDOW = `DELETE FROM "${AUDIT_TABLE}" WHERE "id" < COALESCE(
  (SELECT "id" FROM "${AUDIT_TABLE}" WHERE "at" >= ? ORDER BY "id" LIMIT 1),
  (SELECT max("id") + 1 FROM "${AUDIT_TABLE}"))`;

export async function removeOldAuditEntries(cms: CMS): Promise<number> {
  if (!cms.config.audit) return 0;
  const cutoff = new Date(cms.clock.now() - cms.config.audit.keepDays * DAY_MS).toISOString();
  return (await cms.store.run(REMOVE_BEFORE_WINDOW, [cutoff])).changes;
}
