/**
 * `POST /releases/:id/preview` (docs/releases.md): a token that lets reads with `release=<id>` (this release
 * alone) through for an hour without signing in, acting as the caller who asked for it, so a site's
 * preview can show the release to whoever holds the link.
 */
import { issuePreviewToken } from '../../versions/preview-token.ts';
import { authorizeReleases } from './release-access.ts';
import { loadRelease } from './load-release.ts';
import type { OperationContext } from '../../operation-context.ts';

export async function previewRelease(
  ctx: OperationContext,
  id: unknown,
): Promise<{ token: string; expiresAt: string }> {
  await authorizeReleases(ctx, 'read');
  const row = await loadRelease(ctx.cms.store, id);
  const { token, expiresAt } = issuePreviewToken(
    ctx.cms,
    { kind: 'release', slug: '', id: Number(row.id) },
    { user: ctx.user?.id ?? null, scopes: ctx.scopes ?? null },
  );
  return { token, expiresAt: new Date(expiresAt).toISOString() };
}
