/**
 * `POST /releases/:id/publish` (docs/releases.md): all or nothing, in one transaction. The caller must have
 * the right to publish every item (else 403 naming the first refused); every item is then checked again
 * against today's config and data as it is applied, and any problem rolls the whole publish back with a
 * 409 listing each failing item. A reader sees the release entirely or not at all: the documents, their
 * versions, their events' rows and the release itself commit together.
 */
import { APIError } from '../../errors.ts';
import { isoNow } from '../../clock.ts';
import { inTransaction } from '../../db/transaction.ts';
import { findRelease, itemsOf, updateRelease, type ReleaseItemRow, type ReleaseRow } from '../../releases/store.ts';
import { recordReleaseAudit, recordReleaseWebhooks, type ReleaseSummary } from '../../releases/release-events.ts';
import { loadForUpdate, type DocumentRef } from '../steps/document-target.ts';
import { applyItem, checkItem, itemSubject, itemTarget, type CheckedItem, type ItemProblem } from './apply-items.ts';
import { authorizeReleases } from './release-access.ts';
import { loadRelease, releaseRecord } from './load-release.ts';
import { originOf, stampOf, type OperationContext } from '../../operation-context.ts';

const PUBLISHABLE = ['open', 'scheduled', 'failed'];

export function assertPublishable(row: ReleaseRow): void {
  if (!PUBLISHABLE.includes(row.status)) throw new APIError(409, `A ${row.status} release cannot be published.`);
}

export function refOf(item: ReleaseItemRow): DocumentRef {
  return item.kind === 'global' ? { global: item.slug } : { collection: item.slug, id: Number(item.parent) };
}

const describe = (item: ReleaseItemRow) =>
  item.kind === 'global' ? `the global "${item.slug}"` : `document ${item.parent} of "${item.slug}"`;

/**
 * The caller's right to publish or unpublish each item: update access to its document. Refused: a 403 naming
 * the first such item. Answers the items whose document the caller cannot reach (gone, or hidden from it).
 */
export async function assertMayPublishItems(ctx: OperationContext, items: ReleaseItemRow[]): Promise<Set<number>> {
  const unreachable = new Set<number>();
  if (ctx.overrideAccess) return unreachable;
  for (const item of items) {
    if (!itemTarget(ctx, item)) continue;
    try {
      await loadForUpdate(ctx, refOf(item));
    } catch (error) {
      if (!(error instanceof APIError)) throw error;
      if (error.status === 404) {
        unreachable.add(Number(item.id));
        continue;
      }
      const message = `You may not ${item.action} item ${item.id} (${describe(item)}).`;
      throw new APIError(403, message, undefined, {
        errors: [{ ...itemSubject(item), message } as { message: string }],
      });
    }
  }
  return unreachable;
}

export function summaryOf(row: ReleaseRow, items: ReleaseItemRow[]): ReleaseSummary {
  return {
    id: Number(row.id),
    title: row.title,
    items: items.map((item) => {
      const { item: _id, ...subject } = itemSubject(item);
      return { ...subject, action: item.action };
    }),
  };
}

export async function publishRelease(ctx: OperationContext, id: unknown): Promise<Record<string, unknown>> {
  await authorizeReleases(ctx, 'publish');
  const { cms } = ctx;
  const row = await loadRelease(cms.store, id);
  assertPublishable(row);
  const unreachable = await assertMayPublishItems(ctx, await itemsOf(cms.store, row.id));
  const now = isoNow(cms.clock);
  const stamp = stampOf(ctx, now);
  const locale = cms.config.localization?.defaultLocale ?? null;
  await inTransaction(
    cms.store,
    cms.events,
    async (scope) => {
      const { tx } = scope;
      // Read again inside the transaction: another publish of the same release may have won meanwhile.
      const current = (await findRelease(tx, row.id)) ?? row;
      assertPublishable(current);
      const items = await itemsOf(tx, row.id);
      const problems: ItemProblem[] = [];
      const checked: CheckedItem[] = [];
      for (const item of items) {
        const result = unreachable.has(Number(item.id))
          ? [{ ...itemSubject(item), message: 'Document not found.' }]
          : await checkItem(ctx, tx, item, locale);
        if (Array.isArray(result)) problems.push(...result);
        else checked.push(result);
      }
      if (problems.length)
        throw new APIError(409, `The release cannot be published: ${problems[0].message}`, undefined, {
          errors: problems,
        });
      for (const item of checked) await applyItem(scope, item, stamp);
      await updateRelease(tx, row.id, {
        status: 'published',
        publishedAt: now,
        publishedBy: ctx.user?.id ?? null,
        errors: null,
        lockedUntil: null,
        updatedAt: now,
      });
      const summary = summaryOf(current, items);
      await recordReleaseWebhooks(cms, scope, summary, now);
      await recordReleaseAudit(cms, scope, 'release.publish', summary, now);
    },
    originOf(ctx),
  );
  return releaseRecord(ctx, (await findRelease(cms.store, row.id))!);
}
