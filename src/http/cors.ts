/**
 * CORS (SPEC Authentication §10): origins in `cors` get CORS headers; origins in `auth.trustedOrigins`
 * also get credentials. Any other origin gets no CORS headers at all.
 */
import type { SanitizedConfig } from '../config/types.ts';

import { OVERRIDE_HEADERS } from './method-override.ts';

// Payload's clients send a method-override header on long reads (CONTRACT §7), so preflights allow it.
const ALLOW_HEADERS = ['content-type', 'authorization', 'x-csrf-token', ...OVERRIDE_HEADERS].join(', ');
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

export function preflight(config: SanitizedConfig, request: Request): Response {
  const headers = corsHeaders(config, request.headers.get('origin'));
  if (!headers) return new Response(null, { status: 204 });
  return new Response(null, {
    status: 204,
    headers: { ...headers, 'access-control-allow-methods': ALLOW_METHODS, 'access-control-allow-headers': ALLOW_HEADERS, 'access-control-max-age': '600' },
  });
}
