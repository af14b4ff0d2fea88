/** `POST /releases`: a new open release (scheduled when `publishAt` is given), made by the caller. */
import { isoNow } from '../../clock.ts';
import { insertRelease, updateRelease } from '../../releases/store.ts';
import { writeAuditEntry } from '../../audit/write-entry.ts';
import { authorizeReleases } from './release-access.ts';
import { bodyObject, descriptionOf, futureTime, titleOf } from './release-input.ts';
import { releaseRecord } from './load-release.ts';
import { originOf, type OperationContext } from '../../operation-context.ts';

export async function createRelease(ctx: OperationContext, input: unknown): Promise<Record<string, unknown>> {
  await authorizeReleases(ctx, 'write');
  const body = bodyObject(input);
  const title = titleOf(body.title);
  const description = descriptionOf(body.description);
  const { cms } = ctx;
  const publishAt =
    body.publishAt === undefined || body.publishAt === null
      ? null
      : futureTime(body.publishAt, cms.clock.now(), 'publishAt');
  if (publishAt !== null) await authorizeReleases(ctx, 'publish');
  const now = isoNow(cms.clock);
  const row = await cms.store.transaction(async (tx) => {
    const made = await insertRelease(tx, { title, description, createdBy: ctx.user?.id ?? null, now });
    if (publishAt !== null) {
      await updateRelease(tx, made.id, { status: 'scheduled', publishAt, updatedAt: now });
      made.status = 'scheduled';
      made.publishAt = publishAt;
    }
    await writeAuditEntry(tx, cms, {
      action: 'release.create',
      document: made.id,
      origin: originOf(ctx),
      at: now,
      changes: { title: { from: null, to: title } },
    });
    return made;
  });
  return releaseRecord(ctx, row);
}
