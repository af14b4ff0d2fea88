/** Reads a JSON request body; malformed JSON is a 400, an empty body an empty object. */
import { badRequest } from '../errors.ts';

export async function readJSON(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
}
