/** Evaluates access rules: `true` (allowed), a `where` (allowed for matching documents), or a 401/403. */
import { forbidden, unauthorized } from '../errors.ts';
import type { Entity, Where } from '../config/types.ts';
import type { OperationContext } from '../operations/context.ts';

export type AccessAction = 'read' | 'create' | 'update' | 'delete';

/** Returns null when allowed outright, or the `where` that limits which documents are allowed. */
export async function checkAccess(
  ctx: OperationContext, entity: Entity, action: AccessAction, args: { id?: number; data?: Record<string, unknown>; doc?: Record<string, unknown> } = {},
): Promise<Where | null> {
  if (ctx.overrideAccess) return null;
  if (ctx.scopes && !scopeAllows(ctx.scopes, entity.slug, action)) throw forbidden('This API key is not allowed to perform this action.');
  const rule = (entity.access as Record<string, ((a: unknown) => unknown) | undefined>)[action];
  const result = rule ? await rule({ user: ctx.user, id: args.id, data: args.data, doc: args.doc, req: ctx.req }) : Boolean(ctx.user);
  if (result === true) return null;
  if (result && typeof result === 'object') return result as Where;
  throw ctx.user ? forbidden() : unauthorized();
}

/** `*`, `posts:*`, `posts:read`. */
export function scopeAllows(scopes: string[], slug: string, action: string): boolean {
  return scopes.some((s) => s === '*' || s === `${slug}:*` || s === `${slug}:${action}`);
}

export async function fieldAllowed(
  ctx: OperationContext, rule: ((args: any) => boolean | Promise<boolean>) | undefined, args: { id?: number; data?: Record<string, unknown>; doc?: Record<string, unknown> },
): Promise<boolean> {
  if (ctx.overrideAccess || !rule) return true;
  return Boolean(await rule({ user: ctx.user, ...args, req: ctx.req }));
}
