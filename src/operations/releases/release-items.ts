/**
 * `POST /releases/:id/items` and `DELETE /releases/:id/items/:item`: items change only while the release is
 * open (409 otherwise). Adding needs update access to the document and pins a version: the one given, else
 * (publish) the pending draft or (either action) the newest version; the same document added again
 * replaces its item and pins anew.
 */
import { APIError, badRequest, notFound } from '../../errors.ts';
import { isoNow } from '../../clock.ts';
import { findVersion, listVersions, newestPendingDraft, type VersionOwner } from '../../versions/store.ts';
import {
  putItem,
  removeItem as deleteItemRow,
  updateRelease,
  type ItemAction,
  type ReleaseRow,
} from '../../releases/store.ts';
import { writeAuditEntry } from '../../audit/write-entry.ts';
import { loadForUpdate, type DocumentRef } from '../steps/document-target.ts';
import { parseVersionId } from '../find-versions.ts';
import { assertMayChange, authorizeReleases } from './release-access.ts';
import { bodyObject } from './release-input.ts';
import { loadRelease, parseReleaseId, releaseRecord } from './load-release.ts';
import { originOf, type OperationContext } from '../../operation-context.ts';

const ACTIONS: ItemAction[] = ['publish', 'unpublish'];

/** The release a change of items is made to: the caller may change it, and it is open. */
async function openRelease(ctx: OperationContext, id: unknown): Promise<ReleaseRow> {
  await authorizeReleases(ctx, 'write');
  const row = await loadRelease(ctx.cms.store, id);
  assertMayChange(ctx, row);
  if (row.status !== 'open')
    throw new APIError(409, `Items can change only while the release is open (it is ${row.status}).`);
  return row;
}

function documentRefOf(body: Record<string, unknown>): DocumentRef {
  if (typeof body.global === 'string') return { global: body.global };
  if (typeof body.collection !== 'string')
    throw badRequest('Name a "collection" (with its "id") or a "global".', 'collection');
  if (body.id === undefined || body.id === null || body.id === '') throw badRequest('"id" is required.', 'id');
  return { collection: body.collection, id: body.id as string | number };
}

async function pinnedVersion(ctx: OperationContext, owner: VersionOwner, action: ItemAction, given: unknown) {
  const { store } = ctx.cms;
  if (given !== undefined && given !== null) {
    const row = await findVersion(store, owner, parseVersionId(given));
    if (!row) throw notFound('Version not found.');
    return Number(row.id);
  }
  const draft = action === 'publish' ? await newestPendingDraft(store, owner) : undefined;
  const row = draft ?? (await listVersions(store, owner, 1, 0))[0];
  if (!row && action === 'publish') throw badRequest('This document has no version to publish yet.', 'id');
  return row ? Number(row.id) : null;
}

export async function addReleaseItem(ctx: OperationContext, id: unknown, input: unknown) {
  const release = await openRelease(ctx, id);
  const body = bodyObject(input);
  if (!ACTIONS.includes(body.action as ItemAction))
    throw badRequest(`"action" must be one of: ${ACTIONS.join(', ')}.`, 'action');
  const action = body.action as ItemAction;
  const { entity, owner } = await loadForUpdate(ctx, documentRefOf(body), { drafts: true });
  const version = await pinnedVersion(ctx, owner, action, body.version);
  const { cms } = ctx;
  const now = isoNow(cms.clock);
  await cms.store.transaction(async (tx) => {
    const item = await putItem(
      tx,
      release.id,
      { kind: entity.kind, slug: entity.slug, parent: owner.parent, action, version },
      now,
    );
    await updateRelease(tx, release.id, { updatedAt: now });
    await writeAuditEntry(tx, cms, {
      action: 'release.add_item',
      document: release.id,
      origin: originOf(ctx),
      at: now,
      changes: {
        [`items.${item.id}`]: {
          from: null,
          to: { [entity.kind]: entity.slug, document: owner.parent, action, version },
        },
      },
    });
  });
  return releaseRecord(ctx, await loadRelease(cms.store, release.id));
}

export async function removeReleaseItem(ctx: OperationContext, id: unknown, item: unknown) {
  const release = await openRelease(ctx, id);
  const itemId = parseReleaseId(item, 'item');
  const { cms } = ctx;
  const now = isoNow(cms.clock);
  await cms.store.transaction(async (tx) => {
    if (!(await deleteItemRow(tx, release.id, itemId))) throw notFound('Item not found.');
    await updateRelease(tx, release.id, { updatedAt: now });
    await writeAuditEntry(tx, cms, {
      action: 'release.remove_item',
      document: release.id,
      origin: originOf(ctx),
      at: now,
      changes: { [`items.${itemId}`]: { from: itemId, to: null } },
    });
  });
  return releaseRecord(ctx, await loadRelease(cms.store, release.id));
}
