/**
 * One MCP request over Streamable HTTP (stateless: a fresh server and transport per request, JSON answers
 * rather than a stream), with the official SDK's web-standard transport, which takes a Request and gives
 * a Response, as Bun serves them; a plain `tools/call` or `tools/list` is answered without them, with the
 * same bytes (src/mcp/plain-call.ts). The caller is already known (src/http/routes/mcp.ts); every tool runs
 * as that caller. A tool's failure is an `isError` result naming the field, never a transport failure.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { OperationContext } from '../operation-context.ts';
import { toolDefinitions } from './tool-schemas.ts';
import { callTool } from './call-tool.ts';
import { answerPlainCall } from './plain-call.ts';
import pkg from '../../package.json' with { type: 'json' };

export { callAnswer, callAnswerOf, callResult, plainCall } from './plain-call.ts';

/** Base64 grows a file by a third; the JSON-RPC envelope and other arguments need a little more. */
export const bodyLimit = (maxFileSize: number) => Math.ceil(maxFileSize / 3) * 4 + 256 * 1024;

const INSTRUCTIONS =
  'Call describe first. Writes to drafts collections save drafts; publishing needs the mcp:publish permission.';
// A server builds a JSON Schema validator (Ajv) unless given one: most of a call's cost when made per request.
const validator = new AjvJsonSchemaValidator();

/** Protocol versions from which JSON-RPC batches are gone: a batch sent under one of them is refused. */
const WITHOUT_BATCHES = '2025-06-18';

const rpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });

/**
 * The request's JSON-RPC messages and how many they are (the request bound counts each one). A body that
 * is not JSON, or a batch under a protocol version without batches, is answered here with the JSON-RPC
 * error the SDK's transport would give.
 */
export function parseMessages(text: string, request: Request): { messages: unknown; count: number } | Response {
  let messages: unknown;
  try {
    messages = JSON.parse(text);
  } catch {
    return rpcError(400, -32700, 'Parse error: Invalid JSON');
  }
  if (!Array.isArray(messages)) return { messages, count: 1 };
  const version = request.headers.get('mcp-protocol-version');
  if (version !== null && version >= WITHOUT_BATCHES)
    return rpcError(400, -32600, `Invalid Request: protocol version ${version} has no JSON-RPC batches.`);
  return { messages, count: Math.max(1, messages.length) };
}

export async function serveMCP(ctx: OperationContext, request: Request, messages: unknown): Promise<Response> {
  return (await answerPlainCall(ctx, request, messages)) ?? serveWithSDK(ctx, request, messages);
}

/** The request through the SDK's server and transport, built for it and closed after. */
export async function serveWithSDK(ctx: OperationContext, request: Request, messages: unknown): Promise<Response> {
  const server = new Server(
    { name: 'cms', version: pkg.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: validator },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolDefinitions(ctx.cms.config) }));
  server.setRequestHandler(CallToolRequestSchema, (call) =>
    callTool(ctx, call.params.name, call.params.arguments ?? {}),
  );
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: bodyLimit(ctx.cms.config.upload.maxFileSize),
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody: messages });
  } finally {
    await server.close();
  }
}
