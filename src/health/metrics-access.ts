/** Who reads `GET /metrics` (docs/operations.md): the cron secret as a bearer token, or an admin. */
import { isFullAdmin } from '../access/key-limits.ts';
import { forbidden, unauthorized } from '../errors.ts';
import type { OperationContext } from '../operation-context.ts';
import { isCronSecret } from '../jobs/cron-secret.ts';

/** `bearer`: the request's bearer token; 401 for a caller who sent neither a token nor a session. */
export function authorizeMetrics(ctx: OperationContext, bearer: string | null): void {
  if ((bearer && isCronSecret(ctx.cms, bearer)) || isFullAdmin(ctx.user, ctx.scopes)) return;
  throw ctx.user || bearer ? forbidden('The cron secret or an admin is required.') : unauthorized();
}
