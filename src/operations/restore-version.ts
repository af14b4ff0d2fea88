/**
 * Restore: a published version becomes the live document (status published); any other version becomes
 * the pending draft. It is a save like any other (hooks, validation, events, a new version), made
 * through the update operations with every locale at once.
 */
import { notFound } from '../errors.ts';
import { findVersion } from '../versions/store.ts';
import { pendingDraft } from '../versions/drafts.ts';
import { readLiveDoc } from '../versions/live-row.ts';
import { loadForUpdate, type DocumentRef } from './steps/document-target.ts';
import { parseVersionId } from './find-versions.ts';
import { update } from './update.ts';
import { updateGlobal } from './globals.ts';
import { presentDoc } from './steps/present.ts';
import { deriveContext, type OperationContext } from '../operation-context.ts';

export type RestoreVersionArgs = DocumentRef & { version: number | string; depth?: number };

export async function restoreVersion(
  ctx: OperationContext,
  args: RestoreVersionArgs,
): Promise<Record<string, unknown>> {
  const { entity, owner } = await loadForUpdate(ctx, args, { drafts: true });
  const row = await findVersion(ctx.cms.store, owner, parseVersionId(args.version));
  if (!row) throw notFound('Version not found.');
  const {
    id: _id,
    createdAt: _c,
    updatedAt: _u,
    status: _s,
    ...fields
  } = JSON.parse(row.version) as Record<string, unknown>;
  // With every locale at once a localized field takes an object; one never set is stored as null.
  if (ctx.cms.config.localization)
    for (const field of entity.fields) if (field.localized && fields[field.name] == null) fields[field.name] = {};
  const publish = row.status === 'published';
  const data = { ...fields, status: publish ? 'published' : 'draft' };
  const allLocales = deriveContext(ctx, {
    locale: ctx.cms.config.localization ? 'all' : null,
    fallbackLocale: null,
    auditAction: 'restore',
  });
  if (entity.kind === 'global') await updateGlobal(allLocales, { slug: entity.slug, data, draft: !publish, depth: 0 });
  else await update(allLocales, { collection: entity.slug, id: owner.parent, data, draft: !publish, depth: 0 });
  const stored =
    (publish ? null : await pendingDraft(ctx.cms.store, owner)) ?? (await readLiveDoc(ctx.cms.store, owner))!;
  return presentDoc(ctx, entity, stored, args.depth ?? 1);
}
