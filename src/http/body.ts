/**
 * Reads a JSON request body; malformed or too deeply nested JSON is a 400, an empty body an empty object,
 * one over the limit a 413 (checked while it streams), and one that would pass the process's body budget
 * a 503. A document write may also come as multipart/form-data with its fields in a `_payload` JSON part,
 * as Payload's clients send it, under the same limit and budget.
 */
import { APIError, badRequest } from '../errors.ts';
import type { SanitizedField } from '../config/types.ts';
import { checkJSONNesting } from '../fields/json-nesting.ts';
import { formFieldsToData } from '../uploads/form-fields.ts';
import { bodyReceived } from './long-requests.ts';

/**
 * The server accepts bodies of any size so that uploads can be refused with the contract's 413 while
 * they stream (src/uploads/multipart.ts); JSON bodies are held in memory, so they get their own limit.
 */
export const MAX_JSON_BODY = 16 * 1024 * 1024;

/**
 * Bytes of JSON bodies held at once by this process, across all requests in flight (docs/request-bodies.md).
 * A request that cannot get its share is refused with 503 and `Retry-After` rather than queued: a queue
 * would hold the sender's connection and its buffered bytes just the same.
 */
export const JSON_BODY_BUDGET = 4 * MAX_JSON_BODY;

let budgetUsed = 0;
/** Budget held per request; given back by the HTTP wrapper when the answer is made (src/http/handle.ts). */
const held = new WeakMap<Request, number>();

function reserve(request: Request, bytes: number): void {
  if (budgetUsed + bytes > JSON_BODY_BUDGET) {
    throw new APIError(503, 'The server is busy receiving other request bodies; retry shortly.', undefined, {
      headers: { 'retry-after': '1' },
    });
  }
  budgetUsed += bytes;
  held.set(request, (held.get(request) ?? 0) + bytes);
}

/** Gives back the budget a request's body held (nothing when it read none). */
export function releaseBody(request: Request): void {
  const bytes = held.get(request);
  if (!bytes) return;
  held.delete(request);
  budgetUsed -= bytes;
}

/** For tests and health figures: bytes of JSON bodies held right now. */
export const jsonBodyBytesHeld = () => budgetUsed;

export async function readJSON(request: Request, limit = MAX_JSON_BODY): Promise<unknown> {
  return parseJSONBody(await readText(request, limit));
}

/** A body already read as text, parsed as `readJSON` parses it. */
export function parseJSONBody(text: string): unknown {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
  checkJSONNesting(value, 'The request body');
  return value;
}

/** Bodies read before routing (src/http/app.ts), as text or why they could not be read, for the route's `readText`. */
const readBefore = new WeakMap<Request, string | { refused: unknown }>();

/**
 * The body as text before routing, to look up a kept answer by it; undefined when it cannot be read, and
 * the route's `readText` then throws the same refusal.
 */
export async function readTextBeforeRouting(request: Request, limit = MAX_JSON_BODY): Promise<string | undefined> {
  try {
    return await readText(request, limit);
  } catch (refused) {
    readBefore.set(request, { refused });
    return undefined;
  }
}

/** A body read before routing, for the route's `readText` when the request goes on to it. */
export const passToRoute = (request: Request, text: string) => void readBefore.set(request, text);

/** The body as text, under the same limit and budget as JSON bodies. */
export async function readText(request: Request, limit = MAX_JSON_BODY): Promise<string> {
  const early = readBefore.get(request);
  if (early !== undefined) {
    if (typeof early === 'string') return early;
    throw early.refused;
  }
  const text = (await readBytesUnder(request, limit)).toString('utf8');
  bodyReceived(request);
  return text;
}

export const isMultipart = (request: Request) =>
  /^multipart\/form-data\b/i.test(request.headers.get('content-type') ?? '');

/**
 * The fields of a document write: a JSON body, or multipart/form-data whose `_payload` part holds them as
 * JSON and whose other text parts are read by their field's type. Files belong to upload routes only.
 */
export async function readDocumentBody(
  request: Request,
  fields: { fieldsByName: Map<string, SanitizedField> } | undefined,
): Promise<unknown> {
  if (!isMultipart(request)) return readJSON(request);
  const bytes = await readBytesUnder(request, MAX_JSON_BODY);
  bodyReceived(request);
  const form = await new Response(new Blob([new Uint8Array(bytes)]), {
    headers: { 'content-type': request.headers.get('content-type')! },
  })
    .formData()
    .catch(() => {
      throw badRequest('The request body is not valid multipart/form-data.');
    });
  const parts: Record<string, string> = {};
  for (const [name, value] of form.entries()) {
    if (typeof value !== 'string')
      throw badRequest(`The part "${name}" is a file; only an upload collection's own routes take files.`, name);
    parts[name] = value;
  }
  return formFieldsToData(fields ?? { fieldsByName: new Map() }, parts);
}

async function readBytesUnder(request: Request, limit: number): Promise<Buffer> {
  const tooLarge = () => new APIError(413, `The request body is larger than ${limit} bytes.`);
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > limit) throw tooLarge();
  // A declared length is reserved up front, so a body that cannot fit is refused before it is read;
  // a chunked one reserves as it arrives.
  // With a declared length the server reads exactly that many bytes (HTTP framing), already checked
  // against the limit: one native read, much cheaper than pulling the stream chunk by chunk. Bytes, not
  // `text()`, so the decoding is the same as below (a byte-order mark is kept, and refused by JSON.parse).
  // `request.body` is not asked on this way: asking makes a stream of the body that the read then goes through.
  if (declared > 0 && request.headers.get('transfer-encoding') === null) {
    reserve(request, declared);
    return Buffer.from(await request.arrayBuffer());
  }
  if (!request.body) return Buffer.alloc(0);
  if (declared > 0) reserve(request, declared);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    if (size > declared) reserve(request, chunk.byteLength);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
