/** Checks of what callers send to the release routes: a 400 naming the field, before anything changes. */
import { badRequest } from '../../errors.ts';

type Body = Record<string, unknown>;

export function bodyObject(input: unknown): Body {
  if (!input || typeof input !== 'object' || Array.isArray(input))
    throw badRequest('The request body must be a JSON object.');
  return input as Body;
}

export function titleOf(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest('"title" is required.', 'title');
  if (value.length > 500) throw badRequest('"title" must be at most 500 characters.', 'title');
  return value;
}

export function descriptionOf(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw badRequest('"description" must be a string.', 'description');
  return value;
}

/** A time in the future, as epoch ms. */
export function futureTime(value: unknown, now: number, field: string): number {
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) throw badRequest(`"${field}" must be an ISO date-time.`, field);
  if (at <= now) throw badRequest(`"${field}" must be in the future.`, field);
  return at;
}
