/**
 * The step before a write's body is read (docs/request-bodies.md): the HTTP wrapper names what the
 * request would write, and a caller that the access rules refuse whatever the body says gets its
 * 401/403 (or the 404 of an unknown collection) without a byte of the body being read.
 */
import { preauthorize, type AccessAction } from '../../access/check-access.ts';
import { getCollection, getGlobal } from './entities.ts';
import type { OperationContext } from '../../operation-context.ts';

export type WriteTarget = ({ collection: string; id?: string | number } | { global: string }) & {
  action: AccessAction;
};

export async function preauthorizeWrite(ctx: OperationContext, target: WriteTarget): Promise<void> {
  const entity = 'global' in target ? getGlobal(ctx.cms, target.global) : getCollection(ctx.cms, target.collection);
  const rawId = 'id' in target ? target.id : undefined;
  // A malformed id is the operation's 404; the rule is asked without one.
  const id = rawId !== undefined && /^\d+$/.test(String(rawId)) ? Number(rawId) : undefined;
  await preauthorize(ctx, entity, target.action, { id });
}
