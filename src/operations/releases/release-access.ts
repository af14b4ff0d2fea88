/**
 * Who may do what with releases (docs/releases.md): signed-in users who may update at least one drafts
 * collection or global build releases and change their own (admins change any); API keys also need the
 * scope `releases:write`, and `releases:publish` to publish, schedule or revert. Rights on the items
 * themselves are checked item by item by the operations.
 */
import { forbidden, notFound, unauthorized } from '../../errors.ts';
import { checkAccess } from '../../access/check-access.ts';
import { scopeAllows } from '../../access/key-limits.ts';
import type { ReleaseRow } from '../../releases/store.ts';
import { deriveContext, type OperationContext } from '../../operation-context.ts';

export type ReleaseRight = 'write' | 'publish';

export function assertReleasesOn(ctx: OperationContext): void {
  if (!ctx.cms.config.releases) throw notFound('Releases are not enabled.');
}

/** The key scope a release action needs (sessions have no scopes to check). */
function assertScope(ctx: OperationContext, right: ReleaseRight): void {
  if (ctx.scopes && !scopeAllows(ctx.scopes, 'releases', right))
    throw forbidden(`This API key needs the scope "releases:${right}".`);
}

const isAdmin = (ctx: OperationContext) => ctx.user?.role === 'admin';

/** Reading and building releases: releases on, signed in, and allowed to update some drafts collection or global. */
export async function authorizeReleases(ctx: OperationContext, right: ReleaseRight | 'read'): Promise<void> {
  assertReleasesOn(ctx);
  if (ctx.overrideAccess) return;
  if (!ctx.user) throw unauthorized();
  if (right !== 'read') assertScope(ctx, right);
  if (isAdmin(ctx)) return;
  if (!(await updatesSomeDrafts(ctx))) throw forbidden('You may not update any collection or global with drafts.');
}

async function updatesSomeDrafts(ctx: OperationContext): Promise<boolean> {
  const { collections, globals } = ctx.cms.config;
  for (const entity of [...collections, ...globals]) {
    if (!entity.drafts) continue;
    // Without the key scope for the entity itself, only its update right matters here.
    const unscoped = deriveContext(ctx, { scopes: null });
    try {
      await checkAccess(unscoped, entity, 'update');
      return true;
    } catch {}
  }
  return false;
}

/** Changing a release (its fields, its items, deleting it): its author or an admin. */
export function assertMayChange(ctx: OperationContext, row: ReleaseRow): void {
  if (ctx.overrideAccess || isAdmin(ctx)) return;
  if (row.createdBy === null || Number(row.createdBy) !== ctx.user?.id)
    throw forbidden('Only its author or an admin may change this release.');
}
