/**
 * The drafts, versions, schedule and preview operations act on a collection document or a global,
 * found and authorized the same way: unknown entity 404, drafts required (400), document missing or
 * hidden by the read filter 404, then update access (401/403).
 */
import { badRequest } from '../../errors.ts';
import type { Entity } from '../../config/types.ts';
import { checkAccess } from '../../access/check-access.ts';
import { ownerOf } from '../../versions/live-row.ts';
import type { VersionOwner } from '../../versions/store.ts';
import { getCollection, getGlobal, parseId } from './entities.ts';
import { assertMatches, loadGlobal, loadReadable } from './load-stored.ts';
import type { OperationContext } from '../../operation-context.ts';

type Doc = Record<string, unknown>;

export type DocumentRef = { collection: string; id: number | string } | { global: string };
export type Target = { entity: Entity; owner: VersionOwner; live: Doc };

export function entityOf(ctx: OperationContext, ref: { collection: string } | { global: string }): Entity {
  return 'global' in ref ? getGlobal(ctx.cms, ref.global) : getCollection(ctx.cms, ref.collection);
}

export function requireDrafts(entity: Entity): void {
  if (!entity.drafts) throw badRequest(`"${entity.slug}" does not have drafts enabled.`);
}

export async function loadForUpdate(
  ctx: OperationContext,
  ref: DocumentRef,
  options: { drafts?: boolean } = {},
): Promise<Target> {
  const entity = entityOf(ctx, ref);
  if (options.drafts) requireDrafts(entity);
  if (entity.kind === 'global') {
    const live = await loadGlobal(ctx, entity);
    await checkAccess(ctx, entity, 'update', { doc: live });
    return { entity, owner: ownerOf(entity), live };
  }
  const id = parseId((ref as { id: number | string }).id);
  const live = await loadReadable(ctx, entity, id);
  await assertMatches(ctx, entity, id, await checkAccess(ctx, entity, 'update', { id, doc: live }));
  return { entity, owner: ownerOf(entity, id), live };
}
