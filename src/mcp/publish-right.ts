/** Who may publish, unpublish, schedule and delete over MCP (docs/mcp.md): an admin session, or a key with `mcp:publish`. */
import type { OperationContext } from '../operations/context.ts';

export const PUBLISH_SCOPE = 'mcp:publish';

export function mayPublish(ctx: OperationContext): boolean {
  return ctx.scopes ? ctx.scopes.includes(PUBLISH_SCOPE) : ctx.user?.role === 'admin';
}
