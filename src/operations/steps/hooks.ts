/** Runs a list of hooks in order; a hook that returns a value replaces the value the next one sees. */
import type { Entity, HookArgs, HookName } from '../../config/types.ts';
import { withRequest, type OperationContext } from '../../operation-context.ts';

export async function runHooks<K extends 'data' | 'doc'>(
  ctx: OperationContext,
  entity: Entity,
  name: HookName,
  key: K,
  args: Omit<HookArgs, 'user' | 'req'>,
): Promise<NonNullable<HookArgs[K]>> {
  let value = args[key];
  for (const hook of entity.hooks[name]) {
    const result = await hook(
      withRequest(
        ctx,
        {
          ...args,
          [key]: value,
          user: ctx.user,
          collection: entity.kind === 'collection' ? entity.slug : undefined,
          global: entity.kind === 'global' ? entity.slug : undefined,
        },
        ctx,
      ),
    );
    if (result !== undefined && result !== null && typeof result === 'object') value = result as typeof value;
  }
  return value as NonNullable<HookArgs[K]>;
}

export async function runSideEffectHooks(
  ctx: OperationContext,
  entity: Entity,
  name: HookName,
  args: Omit<HookArgs, 'user' | 'req'>,
): Promise<void> {
  for (const hook of entity.hooks[name]) await hook(withRequest(ctx, { ...args, user: ctx.user }, ctx));
}
