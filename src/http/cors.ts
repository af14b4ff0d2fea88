/**
 * CORS (docs/accounts.md): origins in `cors` get CORS headers; origins in `auth.trustedOrigins`
 * also get credentials. Any other origin gets no CORS headers at all.
 */
import type { SanitizedConfig } from '../config/types.ts';

import { OVERRIDE_HEADERS } from './method-override.ts';

// Payload's clients send a method-override header on long reads (docs/payload-compatibility.md), so preflights allow it.
// x-cms-lock-token: the editor's document lock (docs/content-model.md).
const ALLOW_HEADERS = ['content-type', 'authorization', 'x-csrf-token', 'x-cms-lock-token', ...OVERRIDE_HEADERS].join(
  ', ',
);
const ALLOW_METHODS = 'GET, POST, PATCH, PUT, DELETE, OPTIONS';

export function corsHeaders(config: SanitizedConfig, origin: string | null): Record<string, string> | null {
  if (!origin) return null;
  const trusted = config.auth.trustedOrigins.includes(origin);
  const allowed = trusted || config.cors === '*' || (Array.isArray(config.cors) && config.cors.includes(origin));
  if (!allowed) return null;
  const headers: Record<string, string> = { 'access-control-allow-origin': origin, vary: 'Origin' };
  if (trusted) headers['access-control-allow-credentials'] = 'true';
  return headers;
}

/**
 * With any CORS or trusted origin configured, every answer depends on the request's Origin (its CORS
 * headers are there or not), so every answer says so: a shared cache must not hand an answer made for
 * one origin, or for none, to another.
 */
export function dependsOnOrigin(config: SanitizedConfig): boolean {
  return config.cors === '*' || config.cors.length > 0 || config.auth.trustedOrigins.length > 0;
}

/** Sets the CORS headers for `origin` on `headers`, and `Vary: Origin` whenever answers depend on it. */
export function applyCors(config: SanitizedConfig, origin: string | null, headers: Headers): void {
  const cors = corsHeaders(config, origin);
  if (cors) for (const [k, v] of Object.entries(cors)) if (k !== 'vary') headers.set(k, v);
  if (!cors && !dependsOnOrigin(config)) return;
  const vary = headers.get('vary');
  if (!vary) headers.set('vary', 'Origin');
  else if (!vary.split(',').some((v) => v.trim().toLowerCase() === 'origin' || v.trim() === '*'))
    headers.set('vary', `${vary}, Origin`);
}

export function preflight(config: SanitizedConfig, request: Request): Response {
  const headers = corsHeaders(config, request.headers.get('origin'));
  if (!headers) return new Response(null, { status: 204, headers: dependsOnOrigin(config) ? { vary: 'Origin' } : {} });
  return new Response(null, {
    status: 204,
    headers: {
      ...headers,
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': '600',
    },
  });
}
