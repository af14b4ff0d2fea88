/**
 * The common stateless request, one `tools/call` or `tools/list` with nothing unusual about it, answered
 * without building the SDK's server and transport for it: the same tool handlers, and the same status,
 * headers and bytes the SDK would answer (test/mcp/plain-call.test.ts compares the two). Anything this
 * does not recognise exactly (a batch, a notification, `initialize`, `_meta` or a task, a header the SDK
 * would refuse, an id or argument its schemas would reject or rewrite) returns undefined and goes to the
 * SDK, which stays the reference for the protocol.
 *
 * What the SDK does per call and this skips: a new server and transport, schema validation of the message,
 * of the call and of the result (which only copies a result this module builds in the validated shape),
 * and serializing the tool's result a third time.
 */
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { SanitizedConfig } from '../config/types.ts';
import type { OperationContext } from '../operation-context.ts';
import { toolDefinitions } from './tool-schemas.ts';
import { callTool } from './call-tool.ts';

type Id = string | number;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every own key of `value` is one of `allowed`. */
const onlyKeys = (value: Record<string, unknown>, allowed: readonly string[]) =>
  Object.keys(value).every((key) => allowed.includes(key));

/** The headers under which the SDK's transport would take the message rather than refuse it. */
function acceptedHeaders(request: Request): boolean {
  const accept = request.headers.get('accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return false;
  if (!isJsonContentType(request.headers.get('content-type'))) return false;
  const version = request.headers.get('mcp-protocol-version');
  return version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version);
}

export type Plain =
  | { id: Id; method: 'tools/list' }
  | { id: Id; method: 'tools/call'; name: string; args: Record<string, unknown> };

/** The message as a plain call, or undefined when the SDK's schemas would refuse, strip or copy anything in it. */
function plainMessage(message: unknown): Plain | undefined {
  if (!isPlainObject(message) || !onlyKeys(message, ['jsonrpc', 'id', 'method', 'params'])) return undefined;
  const { jsonrpc, id, method, params } = message;
  if (jsonrpc !== '2.0' || !(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  if (method === 'tools/list') return params === undefined ? { id: id as Id, method } : undefined;
  if (method !== 'tools/call' || !isPlainObject(params) || !onlyKeys(params, ['name', 'arguments'])) return undefined;
  const { name, arguments: args = {} } = params;
  // A `__proto__` key is one the SDK's copy of the arguments would drop.
  if (typeof name !== 'string' || !isPlainObject(args) || Object.hasOwn(args, '__proto__')) return undefined;
  return { id: id as Id, method, name, args };
}

/** The message as a plain call under headers the SDK's transport takes; undefined when the SDK must answer it. */
export function plainCall(request: Request, message: unknown): Plain | undefined {
  const plain = plainMessage(message);
  return plain && acceptedHeaders(request) ? plain : undefined;
}

/**
 * A successful result as the SDK writes it, from the text of its structured content: that text is the
 * result's first content as a string, and the structured content as is.
 */
export const resultText = (text: string) =>
  `{"content":[{"type":"text","text":${JSON.stringify(text)}}],"structuredContent":${text}}`;

/** The answer to the call with this id, around its result as written by `resultText` (or any result's JSON). */
export const callAnswer = (id: Id, result: string) =>
  rpcAnswer(`{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(id)}}`);

const encoder = new TextEncoder();
const RESULT = encoder.encode('{"result":');

/** `callAnswer` around a result kept as bytes. */
export const callAnswerOf = (id: Id, result: Uint8Array<ArrayBuffer>) =>
  rpcAnswer(joined(RESULT, result, encoder.encode(`,"jsonrpc":"2.0","id":${JSON.stringify(id)}}`)));

/**
 * The parts as one plain byte array: Bun.serve sends one at less cost than a Blob of parts or a
 * `Buffer.concat` (a bare server's CPU per 15 kB answer, one busy run: 25–39, 77 and 54 µs).
 */
function joined(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.byteLength;
  }
  return out;
}

const toolLists = new WeakMap<SanitizedConfig, string>();

/** The answer the SDK's transport gives one request in JSON mode. */
const rpcAnswer = (body: string | Uint8Array<ArrayBuffer>) =>
  new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });

export async function answerPlainCall(
  ctx: OperationContext,
  request: Request,
  message: unknown,
): Promise<Response | undefined> {
  const plain = plainCall(request, message);
  if (!plain) return undefined;
  if (plain.method === 'tools/list') {
    const config = ctx.cms.config;
    let tools = toolLists.get(config);
    if (tools === undefined) toolLists.set(config, (tools = JSON.stringify({ tools: toolDefinitions(config) })));
    return callAnswer(plain.id, tools);
  }
  return callAnswer(plain.id, (await callResult(ctx, plain.name, plain.args)).json);
}

/** One tool's result as the SDK writes it, and whether it is a failure. */
export async function callResult(
  ctx: OperationContext,
  name: string,
  args: Record<string, unknown>,
): Promise<{ json: string; failed: boolean }> {
  const result = await callTool(ctx, name, args);
  if (result.isError) return { json: JSON.stringify(result), failed: true };
  // A result's text is its structured content serialized, so that serialization is written out once more as is.
  return { json: resultText(result.content[0]!.text), failed: false };
}
