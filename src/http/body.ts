/** Reads a JSON request body; malformed or too deeply nested JSON is a 400, an empty body an empty object, one over the limit a 413. */
import { APIError, badRequest } from '../errors.ts';
import { checkJSONNesting } from '../fields/json-nesting.ts';

/**
 * The server accepts bodies of any size so that uploads can be refused with the contract's 413 while
 * they stream (src/uploads/multipart.ts); JSON bodies are held in memory, so they get their own limit.
 */
export const MAX_JSON_BODY = 16 * 1024 * 1024;

export async function readJSON(request: Request, limit = MAX_JSON_BODY): Promise<unknown> {
  const text = await readText(request, limit);
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

async function readText(request: Request, limit: number): Promise<string> {
  const tooLarge = () => new APIError(413, `The request body is larger than ${limit} bytes.`);
  if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge();
  if (!request.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request.body) {
    size += chunk.byteLength;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
