/**
 * What an API key may do beyond its scopes (docs/accounts.md). A key acts as its user narrowed
 * to its scopes, but that alone let a key scoped `api-keys:create` mint a `*` key, which then made an
 * admin. So: a key creates only keys whose scopes are a subset of its own, for its own user; creating or
 * changing users (roles, `active`) and changing or deleting keys needs an admin session or an admin's
 * `*` key. Sessions are unaffected: their rights are the access rules'.
 */
import { APIError, forbidden } from '../errors.ts';
import type { Entity } from '../config/types.ts';
import { API_KEYS_SLUG, USERS_SLUG } from '../config/builtin-collections.ts';
import type { OperationContext } from '../operation-context.ts';
import type { AccessAction } from './check-access.ts';

/** `*`, `posts:*`, `posts:read`. */
export function scopeAllows(scopes: string[], slug: string, action: string): boolean {
  return scopes.some((s) => s === '*' || s === `${slug}:*` || s === `${slug}:${action}`);
}

/** A requested scope is within the key's own when every right it grants is one the key has. */
function scopeWithin(own: string[], requested: string): boolean {
  if (requested === '*') return own.includes('*');
  const [slug, action] = requested.split(':');
  return action === '*' ? own.includes('*') || own.includes(`${slug}:*`) : scopeAllows(own, slug, action);
}

/**
 * An admin session, or an admin's API key with every scope: who may manage users, keys and other people's
 * accounts, run jobs, read metrics and health details, and make and fetch backups.
 */
export function isFullAdmin(user: { role?: string } | null, scopes: string[] | null | undefined): boolean {
  return user?.role === 'admin' && (!scopes || scopes.includes('*'));
}

/**
 * Throws 403 when an API-key caller may not do this. `data` is the request's values, or undefined
 * before the body is read (then only what does not depend on it is checked; the operation checks again).
 */
export function assertKeyMay(
  ctx: OperationContext,
  entity: Entity,
  action: AccessAction,
  data?: Record<string, unknown>,
): void {
  const scopes = ctx.scopes;
  if (!scopes) return;
  if (!scopeAllows(scopes, entity.slug, action)) throw forbidden('This API key is not allowed to perform this action.');
  if (action === 'read' || entity.kind !== 'collection') return;
  if (entity.builtIn === USERS_SLUG && !isFullAdmin(ctx.user, scopes)) {
    throw forbidden("Creating or changing users needs an admin session or an admin's `*` API key.");
  }
  if (entity.builtIn !== API_KEYS_SLUG) return;
  if (action !== 'create' && !isFullAdmin(ctx.user, scopes))
    throw forbidden("Changing or deleting API keys needs an admin session or an admin's `*` API key.");
  if (!data) return;
  if ('user' in data && String(data.user) !== String(ctx.user?.id))
    throw new APIError(403, 'An API key can only create keys for its own user.', 'user');
  const requested = Array.isArray(data.scopes) ? data.scopes : [];
  if (requested.some((s) => typeof s === 'string' && !scopeWithin(scopes, s))) {
    throw new APIError(403, 'An API key can only create keys whose scopes are within its own.', 'scopes');
  }
}
