/**
 * `POST /releases/:id/revert` (docs/releases.md): a new open release, `Revert: <title>`, whose items put back
 * what was live just before the published release went live: the version that was live for a document that
 * was published then, an unpublish for one that was not. Publishing it restores the previous published data.
 */
import { APIError } from '../../errors.ts';
import { isoNow } from '../../clock.ts';
import { listVersions } from '../../versions/store.ts';
import { insertRelease, itemsOf, putItem } from '../../releases/store.ts';
import { writeAuditEntry } from '../../audit/write-entry.ts';
import { itemTarget } from './apply-items.ts';
import { assertMayPublishItems } from './publish-release.ts';
import { authorizeReleases } from './release-access.ts';
import { loadRelease, releaseRecord } from './load-release.ts';
import { originOf, type OperationContext } from '../../operation-context.ts';

export async function revertRelease(ctx: OperationContext, id: unknown): Promise<Record<string, unknown>> {
  await authorizeReleases(ctx, 'publish');
  const { cms } = ctx;
  const original = await loadRelease(cms.store, id);
  if (original.status !== 'published') throw new APIError(409, 'Only a published release can be reverted.');
  const items = await itemsOf(cms.store, original.id);
  await assertMayPublishItems(ctx, items);
  const now = isoNow(cms.clock);
  const made = await cms.store.transaction(async (tx) => {
    const release = await insertRelease(tx, {
      title: `Revert: ${original.title}`,
      description: null,
      createdBy: ctx.user?.id ?? null,
      now,
      revertOf: original.id,
    });
    for (const item of items) {
      const target = itemTarget(ctx, item);
      if (!target) continue;
      const back = Boolean(item.wasPublished) && item.previousVersion !== null;
      const version = back
        ? Number(item.previousVersion)
        : ((await listVersions(tx, target.owner, 1, 0))[0]?.id ?? null);
      await putItem(
        tx,
        release.id,
        {
          kind: item.kind as 'collection' | 'global',
          slug: item.slug,
          parent: Number(item.parent),
          action: back ? 'publish' : 'unpublish',
          version,
        },
        now,
      );
    }
    await writeAuditEntry(tx, cms, {
      action: 'release.revert',
      document: original.id,
      origin: originOf(ctx),
      at: now,
      changes: { revertedBy: { from: null, to: release.id } },
    });
    return release;
  });
  return releaseRecord(ctx, made);
}
