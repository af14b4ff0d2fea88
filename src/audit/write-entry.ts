/**
 * One audit-log row (docs/audit-log.md). Written through the `tx` of the write it records, so a write that
 * rolls back leaves no entry and an acknowledged one always has one. Only failed logins are written alone:
 * there is no write for them to join.
 */
import type { CMS } from '../cms.ts';
import type { Queryable } from '../db/store.ts';
import type { WriteOrigin } from '../events/change-events.ts';

export const AUDIT_TABLE = '_cms_audit_log';

/**
 * What an entry records: `login`, `login_failed`, `import` and an admin's actions on another account
 * (src/operations/account/audit-account.ts) beside the changes' own kinds (create, update, publish…).
 */
export type AuditAction =
  | 'create'
  | 'update'
  | 'delete'
  | 'publish'
  | 'unpublish'
  | 'restore'
  | 'discard_draft'
  | 'schedule'
  | 'unschedule'
  | 'login'
  | 'login_failed'
  | 'import'
  | 'end_sessions'
  | 'end_session'
  | 'reset_two_factor'
  | 'unlock'
  | (string & {});

export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

export type AuditEntry = {
  action: AuditAction;
  collection?: string | null;
  global?: string | null;
  document?: number | null;
  origin: WriteOrigin;
  changes?: AuditChanges;
  /** The write's own time when it has one (ISO); else now, from the clock. */
  at?: string;
};

/** Nobody in particular: housekeeping, or a caller that did not say who it is. */
export const SYSTEM_ORIGIN: WriteOrigin = { user: null, apiKey: null, via: 'local', ip: null };

export async function writeAuditEntry(db: Queryable, cms: CMS, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(db, cms, entry);
}

/** As writeAuditEntry, answering the new entry's id (null when the audit log is off). */
export async function insertAuditEntry(db: Queryable, cms: CMS, entry: AuditEntry): Promise<number | null> {
  if (!cms.config.audit) return null;
  const { origin } = entry;
  return db.insert(
    `INSERT INTO "${AUDIT_TABLE}" ("at", "action", "collection", "global", "document", "user", "apiKey", "via", "ip", "changes")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      entry.at ?? new Date(cms.clock.now()).toISOString(),
      origin.action ?? entry.action,
      entry.collection ?? null,
      entry.global ?? null,
      entry.document ?? null,
      origin.user,
      origin.apiKey,
      origin.via,
      origin.ip?.slice(0, 64) ?? null,
      JSON.stringify(entry.changes ?? {}),
    ],
  );
}

/** The entry's subject from a document's or global's own fields. */
export function subjectOf(
  ref: { collection: string; id: number } | { global: string },
): Pick<AuditEntry, 'collection' | 'global' | 'document'> {
  return 'global' in ref ? { global: ref.global } : { collection: ref.collection, document: ref.id };
}
