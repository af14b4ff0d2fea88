/**
 * The audit entry of an admin's action on another user's account (ending their sessions, resetting their
 * second factor, lifting a login lock): written through the action's own transaction (docs/audit-log.md).
 */
import type { Queryable } from '../../db/store.ts';
import { writeAuditEntry, type AuditAction } from '../../audit/write-entry.ts';
import { originOf, type OperationContext } from '../../operation-context.ts';

export type AccountAction = Extract<AuditAction, 'unlock' | 'end_session' | 'end_sessions' | 'reset_two_factor'>;

/** `userId`: the account acted on, or null when no account has the unlocked email. */
export function auditAccountAction(
  tx: Queryable,
  ctx: OperationContext,
  action: AccountAction,
  userId: number | null,
): Promise<void> {
  return writeAuditEntry(tx, ctx.cms, { action, collection: 'users', document: userId, origin: originOf(ctx) });
}
