/**
 * JSON from a client (request bodies, an upload's `_payload` and structured parts) may nest at most
 * MAX_JSON_DEPTH levels. Nothing a config describes comes near it (groups and arrays nest by hand, `json`
 * fields hold documents), while a value thousands of levels deep overflows the stack wherever it is later
 * walked or written back out (JSON.stringify of a preview or a stored row): a 500 from a 40 KB body.
 */
import { badRequest } from '../errors.ts';

export const MAX_JSON_DEPTH = 100;

/** Throws a 400 naming `what` when `value` nests deeper than MAX_JSON_DEPTH. Walks with its own stack. */
export function checkJSONNesting(value: unknown, what: string, field?: string): void {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth > MAX_JSON_DEPTH) throw badRequest(`${what} is nested more than ${MAX_JSON_DEPTH} levels deep.`, field);
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (typeof child === 'object' && child !== null) pending.push([child, depth + 1]);
    }
  }
}
