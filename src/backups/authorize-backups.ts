/** Backups are for admins: an admin session or an admin's `*` API key makes, lists and downloads them (docs/operations.md). */
import { isFullAdmin } from '../access/key-limits.ts';
import { forbidden, unauthorized } from '../errors.ts';
import type { OperationContext } from '../operation-context.ts';

export function authorizeBackups(ctx: OperationContext): void {
  if (!isFullAdmin(ctx.user, ctx.scopes))
    throw ctx.user ? forbidden('Only admins may make or read backups.') : unauthorized();
}
