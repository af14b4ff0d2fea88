/**
 * `PATCH /releases/:id` (title, description; only while open or scheduled, else 409) and
 * `DELETE /releases/:id` (any release not yet published; a published one stays as the record of what went live).
 */
import { APIError } from '../../errors.ts';
import { isoNow } from '../../clock.ts';
import { deleteRelease, updateRelease } from '../../releases/store.ts';
import { writeAuditEntry } from '../../audit/write-entry.ts';
import { assertMayChange, authorizeReleases } from './release-access.ts';
import { bodyObject, descriptionOf, titleOf } from './release-input.ts';
import { loadRelease, releaseRecord } from './load-release.ts';
import { originOf, type OperationContext } from '../../operation-context.ts';

export async function changeRelease(ctx: OperationContext, id: unknown, input: unknown) {
  await authorizeReleases(ctx, 'write');
  const row = await loadRelease(ctx.cms.store, id);
  assertMayChange(ctx, row);
  const body = bodyObject(input);
  if (row.status !== 'open' && row.status !== 'scheduled')
    throw new APIError(409, `A ${row.status} release cannot be changed.`);
  const values: { title?: string; description?: string | null } = {};
  if ('title' in body) values.title = titleOf(body.title);
  if ('description' in body) values.description = descriptionOf(body.description);
  const { cms } = ctx;
  const now = isoNow(cms.clock);
  await cms.store.transaction(async (tx) => {
    await updateRelease(tx, row.id, { ...values, updatedAt: now });
    await writeAuditEntry(tx, cms, {
      action: 'release.update',
      document: row.id,
      origin: originOf(ctx),
      at: now,
      changes: Object.fromEntries(
        Object.entries(values).map(([k, v]) => [k, { from: (row as Record<string, unknown>)[k] ?? null, to: v }]),
      ),
    });
  });
  return releaseRecord(ctx, await loadRelease(cms.store, row.id));
}

export async function removeRelease(ctx: OperationContext, id: unknown) {
  await authorizeReleases(ctx, 'write');
  const row = await loadRelease(ctx.cms.store, id);
  assertMayChange(ctx, row);
  if (row.status === 'published') throw new APIError(409, 'A published release cannot be deleted.');
  const { cms } = ctx;
  const record = await releaseRecord(ctx, row);
  await cms.store.transaction(async (tx) => {
    await deleteRelease(tx, row.id);
    await writeAuditEntry(tx, cms, {
      action: 'release.delete',
      document: row.id,
      origin: originOf(ctx),
      changes: { title: { from: row.title, to: null } },
    });
  });
  return record;
}
