/**
 * The items of a release, checked then applied inside the publish's one transaction (docs/releases.md):
 * each `publish` item's pinned version is checked as a publish (required, minRows, custom checks, unique
 * values) and becomes the live document, a newer pending draft staying pending; each `unpublish` item's
 * document stops being published. Every document announces its own events through the transaction's
 * scope, as a publish or an unpublish would. Problems are collected, not thrown, so the caller can name
 * every failing item before anything is written.
 */
import { APIError } from '../../errors.ts';
import type { Entity } from '../../config/types.ts';
import { docToRow } from '../../fields/row.ts';
import { publishProblems } from '../../fields/validate.ts';
import { assertUniqueAmongOthers, insertRow, updateRow } from '../../db/documents.ts';
import type { Queryable } from '../../db/store.ts';
import type { TransactionScope } from '../../events/change-events.ts';
import { findVersion, insertVersion, type VersionOwner } from '../../versions/store.ts';
import { recordLiveVersion, type VersionStamp } from '../../versions/drafts.ts';
import { eventSubject, ownerOf, readLiveDoc, rowIdOf } from '../../versions/live-row.ts';
import { recordPrevious, type ReleaseItemRow } from '../../releases/store.ts';
import { statusEvents } from '../steps/status-events.ts';
import type { OperationContext } from '../../operation-context.ts';

type Doc = Record<string, unknown>;

export type ItemProblem = {
  item: number;
  collection?: string;
  global?: string;
  document?: number;
  message: string;
  field?: string;
};

/** Where an item points: its entity (null when the config no longer has it, or it lost drafts) and owner. */
export function itemTarget(
  ctx: OperationContext,
  item: ReleaseItemRow,
): { entity: Entity; owner: VersionOwner } | null {
  const { config } = ctx.cms;
  const entity = item.kind === 'global' ? config.globalsBySlug.get(item.slug) : config.collectionsBySlug.get(item.slug);
  if (!entity || !entity.drafts) return null;
  return { entity, owner: ownerOf(entity, Number(item.parent)) };
}

export function itemSubject(item: ReleaseItemRow): Omit<ItemProblem, 'message' | 'field'> {
  return item.kind === 'global'
    ? { item: Number(item.id), global: item.slug }
    : { item: Number(item.id), collection: item.slug, document: Number(item.parent) };
}

/** Drafts up to the pinned one are taken live; a draft saved after it stays the pending draft. */
async function settleDraftsUpTo(tx: Queryable, owner: VersionOwner, version: number): Promise<boolean> {
  const settled = await tx.run(
    `UPDATE "_cms_versions" SET "pending" = 0 WHERE "kind" = ? AND "slug" = ? AND "parent" = ? AND "pending" = 1 AND "id" <= ?`,
    [owner.entity.kind, owner.entity.slug, owner.parent, version],
  );
  return settled.changes > 0;
}

/** An item checked and ready to apply: what is live now and, for a publish, the row to write. */
export type CheckedItem = {
  item: ReleaseItemRow;
  owner: VersionOwner;
  previous: Doc | null;
  publish: { row: Doc; pinned: number } | null;
};

/**
 * Checks one item against today's config and data, writing nothing: its problems, or what to apply. `locale`
 * is the one a whole-document check reads (the default locale), null without localization.
 */
export async function checkItem(
  ctx: OperationContext,
  tx: Queryable,
  item: ReleaseItemRow,
  locale: string | null,
): Promise<ItemProblem[] | CheckedItem> {
  const subject = itemSubject(item);
  const problem = (message: string, field?: string): ItemProblem[] => [
    field ? { ...subject, message, field } : { ...subject, message },
  ];
  const target = itemTarget(ctx, item);
  if (!target) return problem(`"${item.slug}" is no longer a collection or global with drafts.`);
  const { entity, owner } = target;
  const previous = await readLiveDoc(tx, owner);
  if (!previous && entity.kind === 'collection') return problem('Document not found.');
  if (item.action === 'unpublish') return { item, owner, previous, publish: null };

  const pinned = item.version === null ? undefined : await findVersion(tx, owner, Number(item.version));
  if (!pinned) return problem('The pinned version no longer exists.');
  const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = JSON.parse(pinned.version) as Doc;
  const stored: Doc = { ...fields, status: 'published' };
  const id = entity.kind === 'collection' ? owner.parent : undefined;
  const problems = await publishProblems(entity.fields, stored, locale, { user: ctx.user, id, sent: new Set() });
  if (problems.length) return problems.map((p) => ({ ...subject, message: p.message, field: p.field }));
  const row = docToRow(entity, stored, tx.dialect);
  try {
    if (entity.kind === 'collection') await assertUniqueAmongOthers(tx, entity, owner.parent, row);
  } catch (error) {
    if (error instanceof APIError) return problem(error.message, error.field);
    throw error;
  }
  return { item, owner, previous, publish: { row, pinned: Number(pinned.id) } };
}

/** Applies a checked item in the publish's transaction, keeping what was live before on the item (for a revert). */
export async function applyItem(scope: TransactionScope, checked: CheckedItem, stamp: VersionStamp): Promise<void> {
  const { tx } = scope;
  const { item, owner, previous, publish } = checked;
  await recordPrevious(tx, item, previous?.status === 'published');
  if (!publish) return unpublishItem(scope, owner, previous, stamp);
  const { entity } = owner;
  if (previous) await updateRow(tx, entity, rowIdOf(owner), { ...publish.row, updatedAt: stamp.now });
  else await insertRow(tx, entity, { id: rowIdOf(owner), ...publish.row, createdAt: stamp.now, updatedAt: stamp.now });
  const saved = (await readLiveDoc(tx, owner))!;
  const tookDraft = await settleDraftsUpTo(tx, owner, publish.pinned);
  await insertVersion(tx, owner, saved, { status: 'published', pending: false, ...stamp });
  const event = { ...eventSubject(owner), doc: saved, previousDoc: previous, timestamp: stamp.now };
  await scope.emit({ ...event, type: 'update' });
  for (const type of statusEvents(previous, saved, tookDraft)) await scope.emit({ ...event, type });
}

async function unpublishItem(
  scope: TransactionScope,
  owner: VersionOwner,
  previous: Doc | null,
  stamp: VersionStamp,
): Promise<void> {
  if (previous?.status !== 'published') return;
  const { tx } = scope;
  await updateRow(tx, owner.entity, rowIdOf(owner), { status: 'draft', updatedAt: stamp.now });
  const saved = (await readLiveDoc(tx, owner))!;
  await recordLiveVersion(tx, owner, saved, stamp, { keepPending: true });
  await scope.emit({
    type: 'unpublish',
    ...eventSubject(owner),
    doc: saved,
    previousDoc: previous,
    timestamp: stamp.now,
  });
}
