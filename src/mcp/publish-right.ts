/** Who may publish, unpublish, schedule and delete over MCP (docs/mcp.md): an admin session, or a key with `mcp:publish`. */
import { APIError } from '../errors.ts';
import type { OperationContext } from '../operation-context.ts';

export const PUBLISH_SCOPE = 'mcp:publish';

export function mayPublish(ctx: OperationContext): boolean {
  return ctx.scopes ? ctx.scopes.includes(PUBLISH_SCOPE) : ctx.user?.role === 'admin';
}

/** The refusal when the right is missing: what was asked for, and how to get it. */
export const needsPublishRight = (what: string) =>
  new APIError(
    403,
    `${what} needs the ${PUBLISH_SCOPE} scope on the API key (or an admin session). Ask an editor to do it, or to grant that scope.`,
  );
