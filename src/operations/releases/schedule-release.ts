/**
 * `POST /releases/:id/schedule` `{ at }` and `POST /releases/:id/unschedule` (docs/releases.md). Scheduling
 * needs what publishing needs (the `releases:publish` scope, the right to publish every item); the job loop
 * then publishes the release at `publishAt`, or marks it `failed` with the items' errors.
 */
import { APIError } from '../../errors.ts';
import { isoNow } from '../../clock.ts';
import { itemsOf, updateRelease } from '../../releases/store.ts';
import { writeAuditEntry } from '../../audit/write-entry.ts';
import { assertMayPublishItems } from './publish-release.ts';
import { assertMayChange, authorizeReleases } from './release-access.ts';
import { bodyObject, futureTime } from './release-input.ts';
import { loadRelease, releaseRecord } from './load-release.ts';
import { originOf, type OperationContext } from '../../operation-context.ts';

const SCHEDULABLE = ['open', 'scheduled', 'failed'];

export async function scheduleRelease(ctx: OperationContext, id: unknown, input: unknown) {
  await authorizeReleases(ctx, 'publish');
  const { cms } = ctx;
  const row = await loadRelease(cms.store, id);
  assertMayChange(ctx, row);
  const at = futureTime(bodyObject(input).at, cms.clock.now(), 'at');
  if (!SCHEDULABLE.includes(row.status)) throw new APIError(409, `A ${row.status} release cannot be scheduled.`);
  await assertMayPublishItems(ctx, await itemsOf(cms.store, row.id));
  const now = isoNow(cms.clock);
  await cms.store.transaction(async (tx) => {
    await updateRelease(tx, row.id, {
      status: 'scheduled',
      publishAt: at,
      errors: null,
      lockedUntil: null,
      updatedAt: now,
    });
    await writeAuditEntry(tx, cms, {
      action: 'release.schedule',
      document: row.id,
      origin: originOf(ctx),
      at: now,
      changes: {
        publishAt: {
          from: row.publishAt === null ? null : new Date(Number(row.publishAt)).toISOString(),
          to: new Date(at).toISOString(),
        },
      },
    });
  });
  return releaseRecord(ctx, await loadRelease(cms.store, row.id));
}

export async function unscheduleRelease(ctx: OperationContext, id: unknown) {
  await authorizeReleases(ctx, 'publish');
  const { cms } = ctx;
  const row = await loadRelease(cms.store, id);
  assertMayChange(ctx, row);
  if (row.status !== 'scheduled') throw new APIError(409, `A ${row.status} release is not scheduled.`);
  const now = isoNow(cms.clock);
  await cms.store.transaction(async (tx) => {
    await updateRelease(tx, row.id, { status: 'open', publishAt: null, lockedUntil: null, updatedAt: now });
    await writeAuditEntry(tx, cms, {
      action: 'release.unschedule',
      document: row.id,
      origin: originOf(ctx),
      at: now,
      changes: { publishAt: { from: new Date(Number(row.publishAt)).toISOString(), to: null } },
    });
  });
  return releaseRecord(ctx, await loadRelease(cms.store, row.id));
}
