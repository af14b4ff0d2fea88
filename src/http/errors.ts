/**
 * Turns anything thrown into the contract's error shape; production 500s carry no details. Faults of the
 * machine (src/faults.ts) are answered 503 or 507; failures are logged once a minute each (./failure-log.ts).
 */
import { APIError } from '../errors.ts';
import type { CMS } from '../cms.ts';
import { faultAnswer, faultKind } from '../faults.ts';
import { logFailure } from './failure-log.ts';
import { countFault } from '../metrics/registry.ts';

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

export function errorResponse(cms: CMS, error: unknown): Response {
  if (error instanceof APIError) return json(error.toBody(), error.status, error.headers);
  const kind = faultKind(error);
  if (kind) {
    countFault(cms, kind);
    logFailure(cms, kind, error instanceof Error ? `${error.name}: ${error.message}` : String(error));
    const answer = faultAnswer(kind);
    return json(answer.toBody(), answer.status, answer.headers);
  }
  logFailure(cms, error instanceof Error ? `${error.name}: ${error.message}` : String(error), error);
  const message =
    cms.config.dev && error instanceof Error ? `${error.name}: ${error.message}` : 'Something went wrong.';
  return json({ errors: [{ message }] }, 500);
}

export const notFoundResponse = () => json({ errors: [{ message: 'Not Found' }] }, 404);
export const methodNotAllowed = (allowed: string[]) =>
  json({ errors: [{ message: 'Method Not Allowed' }] }, 405, { allow: allowed.join(', ') });
