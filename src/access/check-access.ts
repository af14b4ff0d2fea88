/** Evaluates access rules: `true` (allowed), a `where` (allowed for matching documents), or a 401/403. */
import { forbidden, unauthorized } from '../errors.ts';
import type { Entity, Where } from '../config/types.ts';
import { withRequest, type OperationContext } from '../operation-context.ts';
import { assertKeyMay } from './key-limits.ts';

export type AccessAction = 'read' | 'create' | 'update' | 'delete';
type RuleArgs = { id?: number; data?: Record<string, unknown>; doc?: Record<string, unknown> };

const ruleOf = (entity: Entity, action: AccessAction) =>
  (entity.access as Record<string, ((a: unknown) => unknown) | undefined>)[action];
const refusal = (ctx: OperationContext) => (ctx.user ? forbidden() : unauthorized());

/** Returns null when allowed outright, or the `where` that limits which documents are allowed. */
export async function checkAccess(
  ctx: OperationContext,
  entity: Entity,
  action: AccessAction,
  args: RuleArgs = {},
): Promise<Where | null> {
  if (ctx.overrideAccess) return null;
  assertKeyMay(ctx, entity, action, args.data);
  const rule = ruleOf(entity, action);
  const result = rule
    ? await rule(withRequest(ctx, { user: ctx.user, id: args.id, data: args.data, doc: args.doc }))
    : Boolean(ctx.user);
  if (result === true) return null;
  if (result && typeof result === 'object') return result as Where;
  throw refusal(ctx);
}

/**
 * Before a write's body is read (docs/request-bodies.md): refuses (401/403) a caller whom the rule
 * refuses whatever the body says, so nothing large is read for them. A rule that looks at `data` or
 * `doc` (or throws without them), or answers with a filter, cannot be decided yet and is left to the
 * operation, which checks everything again with the body.
 */
export async function preauthorize(
  ctx: OperationContext,
  entity: Entity,
  action: AccessAction,
  args: { id?: number } = {},
): Promise<void> {
  if (ctx.overrideAccess) return;
  assertKeyMay(ctx, entity, action);
  const rule = ruleOf(entity, action);
  if (!rule) {
    if (!ctx.user) throw unauthorized();
    return;
  }
  let needsBody = false;
  const input = withRequest(ctx, {
    user: ctx.user,
    id: args.id,
    get data() {
      needsBody = true;
      return undefined;
    },
    get doc() {
      needsBody = true;
      return undefined;
    },
  });
  let result: unknown;
  try {
    result = await rule(input);
  } catch {
    return;
  }
  if (!needsBody && (result === false || result === null || result === undefined || result === 0 || result === ''))
    throw refusal(ctx);
}

export async function fieldAllowed(
  ctx: OperationContext,
  rule: ((args: any) => boolean | Promise<boolean>) | undefined,
  args: { id?: number; data?: Record<string, unknown>; doc?: Record<string, unknown> },
): Promise<boolean> {
  if (ctx.overrideAccess || !rule) return true;
  return Boolean(await rule(withRequest(ctx, { user: ctx.user, ...args })));
}
