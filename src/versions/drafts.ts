/**
 * Drafts over live documents (docs/drafts-and-versions.md). The live row holds what is published (or,
 * for a document never published, its first draft). A draft saved with `draft=true` is kept as a
 * pending version and leaves the live row alone; the newest pending version is "the pending draft".
 * Every save keeps a version; these helpers run inside the caller's write transaction.
 */
import { badRequest } from '../errors.ts';
import type { Entity } from '../config/types.ts';
import type { Queryable } from '../db/store.ts';
import type { TransactionScope } from '../events/change-events.ts';
import {
  insertVersion,
  newestPendingDraft,
  settlePendingDrafts,
  type VersionOwner,
  saveAutosaveVersion,
} from './store.ts';
import { eventSubject, ownerOf } from './live-row.ts';

type Doc = Record<string, unknown>;

/** A save stores only a draft when asked with `draft=true`, unless it publishes (status wins, as in Payload). */
export function savesOnlyDraft(entity: Entity, draft: boolean | undefined, status: string | undefined): boolean {
  return entity.drafts && Boolean(draft) && status !== 'published';
}

/** An autosave always saves only a draft; without drafts there is nothing it could save. */
export function autosaveTarget(entity: Entity): true {
  if (!entity.drafts) throw badRequest('autosave needs drafts on this collection or global.', 'autosave');
  return true;
}

/** The pending draft of one document (every locale), or null. */
export async function pendingDraft(db: Queryable, owner: VersionOwner): Promise<Doc | null> {
  const row = await newestPendingDraft(db, owner);
  return row ? (JSON.parse(row.version) as Doc) : null;
}

/** Reads with `draft=true`: the document's pending draft when it has one, else the document itself. */
export async function withPendingDraft(db: Queryable, entity: Entity, doc: Doc): Promise<Doc> {
  if (!entity.drafts) return doc;
  return (await pendingDraft(db, ownerOf(entity, doc.id as number))) ?? doc;
}

/** When and by whom a version is saved: `author` is the user's id, null for the system (jobs, Local API without a user). */
export type VersionStamp = { now: string; author: number | null };

/**
 * The version of a live write. Pending drafts the write merged in become history, except for unpublish,
 * which keeps the pending draft pending. Returns whether a pending draft was taken live.
 */
export async function recordLiveVersion(
  tx: Queryable,
  owner: VersionOwner,
  saved: Doc,
  stamp: VersionStamp,
  options: { keepPending?: boolean } = {},
): Promise<boolean> {
  const tookDraft = options.keepPending ? false : (await settlePendingDrafts(tx, owner)) > 0;
  await insertVersion(tx, owner, saved, { status: String(saved.status ?? 'draft'), pending: false, ...stamp });
  return tookDraft;
}

/** A save that stores only a draft: a pending version, the live row untouched; announces `draft`. */
/** `autosave`: collapse into the newest version when that is an autosave too (versions/store.ts). */
export async function saveDraftOnly(
  scope: TransactionScope,
  owner: VersionOwner,
  draft: Doc,
  previous: Doc | null,
  stamp: VersionStamp,
  autosave = false,
): Promise<Doc> {
  const { now } = stamp;
  const doc = { ...draft, status: 'draft', updatedAt: now };
  if (autosave) await saveAutosaveVersion(scope.tx, owner, doc, stamp);
  else await insertVersion(scope.tx, owner, doc, { status: 'draft', pending: true, ...stamp });
  await scope.emit({ type: 'draft', ...eventSubject(owner), doc, previousDoc: previous, timestamp: now });
  return doc;
}
