/**
 * One tool call as the caller: the tool's result as text and as structured content, or a failure as an
 * `isError` result naming the field (never a transport failure). Both ways of answering a call (the SDK's
 * server and src/mcp/plain-call.ts) run this. The keys are in the order the SDK's result schema writes
 * them, so either way the bytes are the same.
 */
import { APIError } from '../errors.ts';
import type { OperationContext } from '../operation-context.ts';
import { TOOLS_BY_NAME } from './tools.ts';
import { mayPublish, needsPublishRight } from './publish-right.ts';

export type ToolResult = {
  /** The structured content serialized, on success. */
  content: [{ type: 'text'; text: string }];
  structuredContent: Record<string, unknown>;
  isError?: true;
};

export async function callTool(
  ctx: OperationContext,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> {
  const tool = TOOLS_BY_NAME.get(name);
  try {
    if (!tool) throw new APIError(400, `There is no tool "${name}".`, 'name');
    if (tool.publishes && !mayPublish(ctx)) throw needsPublishRight(`"${name}"`);
    const result = await tool.run(ctx, args);
    return { content: [{ type: 'text', text: JSON.stringify(result) }], structuredContent: result };
  } catch (error) {
    if (!(error instanceof APIError)) {
      ctx.cms.log.error(`mcp tool ${name} failed:`, error);
      return failure(500, [{ message: 'Something went wrong.' }]);
    }
    return failure(error.status, error.toBody().errors);
  }
}

function failure(status: number, errors: { message: string; field?: string }[]): ToolResult {
  const text = errors.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message)).join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { status, errors }, isError: true };
}
