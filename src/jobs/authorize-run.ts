/**
 * Who may run due jobs now (`/jobs/run`, docs/webhooks.md "Jobs"): the cron secret, or an admin. A cookie
 * session must use POST, which carries the CSRF check: a GET is what a link or an image on another site can
 * make a browser send. 401 without valid credentials (a wrong secret included), 403 for a user who may not.
 */
import { isFullAdmin } from '../access/key-limits.ts';
import { forbidden, unauthorized } from '../errors.ts';
import type { OperationContext } from '../operation-context.ts';
import { isCronSecret } from './cron-secret.ts';

/** `bearer`: the request's bearer token; `cookieRead`: a cookie session asking with another verb than POST. */
export function authorizeJobRun(ctx: OperationContext, args: { bearer: string | null; cookieRead: boolean }): void {
  if (args.bearer && isCronSecret(ctx.cms, args.bearer)) return;
  if (!isFullAdmin(ctx.user, ctx.scopes))
    throw ctx.user
      ? forbidden('The cron secret or an admin is required.')
      : unauthorized('The cron secret or an admin session is required.');
  if (args.cookieRead) throw forbidden('A cookie session runs jobs with POST and the x-csrf-token header.');
}
