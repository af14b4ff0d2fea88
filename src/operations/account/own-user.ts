/** The signed-in user as they read their own record: every field they may see, no relationships populated. */
import type { User } from '../../config/types.ts';
import { deriveContext, type OperationContext } from '../../operation-context.ts';
import { presentDoc } from '../steps/present.ts';

export function presentOwnUser(ctx: OperationContext, user: User): Promise<Record<string, unknown>> {
  return presentDoc(
    deriveContext(ctx, { overrideAccess: true }),
    ctx.cms.config.collectionsBySlug.get('users')!,
    user,
    0,
  );
}

/** A time in ms as the seconds a session's `exp` is given in. */
export const seconds = (ms: number) => Math.floor(ms / 1000);
