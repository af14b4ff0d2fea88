/** Reading a tool's arguments: a missing or mistyped one is a 400 naming it, which the server turns into an `isError` result. */
import { APIError } from '../errors.ts';
import type { Where } from '../config/types.ts';

export type Args = Record<string, unknown>;

const wrong = (name: string, what: string) => new APIError(400, `"${name}" must be ${what}.`, name);

export function text(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') throw wrong(name, 'a non-empty string');
  return value;
}

export function optionalText(args: Args, name: string): string | undefined {
  return args[name] === undefined || args[name] === null ? undefined : text(args, name);
}

export function id(args: Args, name = 'id'): number {
  const value = args[name];
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw wrong(name, 'a positive integer id');
  return n;
}

export function optionalInteger(args: Args, name: string): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw wrong(name, 'an integer');
  return value;
}

export function object(args: Args, name: string): Record<string, unknown> {
  const value = args[name];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrong(name, 'an object');
  return value as Record<string, unknown>;
}

export function optionalWhere(args: Args): Where | undefined {
  return args.where === undefined || args.where === null ? undefined : (object(args, 'where') as Where);
}
