/**
 * Failed logins in the audit log, folded (docs/audit-log.md "Failed logins"). The login lock counts per
 * email and address, so a client trying made-up emails is never locked, and one entry per attempt would
 * let it grow the log without bound. Instead, per address, account (or none) and transport, the first
 * failure in a window writes an entry and the repeats update that entry's count. The number of addresses
 * followed at once is bounded too: past it, failures from further addresses fold into one entry without
 * an address. The state is this process's: another instance keeps its own entries.
 */
import type { CMS } from '../cms.ts';
import type { WriteOrigin } from '../events/change-events.ts';
import { AUDIT_TABLE, insertAuditEntry } from './write-entry.ts';

/** Addresses (with account and transport) followed at once per process; further ones share one entry. */
export const MAX_FOLDED_ADDRESSES = 1000;

type Fold = {
  id: Promise<number | null>;
  attempts: number;
  firstAt: string;
  lastAt: string;
  until: number;
  chain: Promise<void>;
};

const byInstance = new WeakMap<CMS, Map<string, Fold>>();

export async function recordFailedLogin(cms: CMS, document: number | null, origin: WriteOrigin): Promise<void> {
  if (!cms.config.audit) return;
  const folds = foldsOf(cms);
  const now = cms.clock.now();
  for (const [key, fold] of folds) if (fold.until <= now) folds.delete(key);
  let key = `${origin.via}|${origin.ip ?? '-'}|${document ?? '-'}`;
  let entryOrigin = origin;
  let subject = document;
  if (!folds.has(key) && folds.size >= MAX_FOLDED_ADDRESSES) {
    key = `${origin.via}|*`;
    entryOrigin = { ...origin, ip: null };
    subject = null;
  }
  const at = new Date(now).toISOString();
  const fold = folds.get(key);
  if (!fold) {
    const id = insertAuditEntry(cms.store, cms, {
      action: 'login_failed',
      collection: 'users',
      document: subject,
      origin: entryOrigin,
      at,
    });
    folds.set(key, {
      // An entry that could not be written is not folded into: the next failure tries again.
      id: id.catch(() => (folds.delete(key), null)),
      attempts: 1,
      firstAt: at,
      lastAt: at,
      until: now + cms.config.auth.lockWindow * 1000,
      chain: Promise.resolve(),
    });
    await id;
    return;
  }
  fold.attempts++;
  fold.lastAt = at;
  // One update at a time per entry, each writing the count as it is then: the last one written is the latest.
  const update = fold.chain.then(async () => {
    const id = await fold.id;
    const changes = {
      attempts: { from: 1, to: fold.attempts },
      lastAttempt: { from: fold.firstAt, to: fold.lastAt },
    };
    const updated =
      id === null
        ? 0
        : (
            await cms.store.run(`UPDATE "${AUDIT_TABLE}" SET "changes" = ? WHERE "id" = ?`, [
              JSON.stringify(changes),
              id,
            ])
          ).changes;
    // The entry was removed meanwhile (retention): the next failure starts a new one.
    if (updated === 0) folds.delete(key);
  });
  fold.chain = update.catch(() => {});
  await update;
}

function foldsOf(cms: CMS): Map<string, Fold> {
  let folds = byInstance.get(cms);
  if (!folds) byInstance.set(cms, (folds = new Map()));
  return folds;
}
