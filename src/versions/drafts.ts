/**
 * Drafts over live documents (docs/drafts-and-versions.md). The live row holds what is published (or,
 * for a document never published, its first draft). A draft saved with `draft=true` is kept as a
 * pending version and leaves the live row alone; the newest pending version is "the pending draft".
 * Every save keeps a version; these helpers run inside the caller's write transaction.
 */
import type { Entity } from '../config/types.ts';
import type { CMS } from '../cms.ts';
import type { TransactionScope } from '../events/change-events.ts';
import { insertVersion, newestPendingDraft, settlePendingDrafts, type VersionOwner } from './store.ts';
import { eventSubject, ownerOf } from './live-row.ts';

type Doc = Record<string, unknown>;

/** A save stores only a draft when asked with `draft=true`, unless it publishes (status wins, as in Payload). */
export function savesOnlyDraft(entity: Entity, draft: boolean | undefined, status: string | undefined): boolean {
  return entity.drafts && Boolean(draft) && status !== 'published';
}

/** The pending draft of one document (every locale), or null. */
export function pendingDraft(cms: CMS, owner: VersionOwner): Doc | null {
  const row = newestPendingDraft(cms, owner);
  return row ? (JSON.parse(row.version) as Doc) : null;
}

/** Reads with `draft=true`: the document's pending draft when it has one, else the document itself. */
export function withPendingDraft(cms: CMS, entity: Entity, doc: Doc): Doc {
  if (!entity.drafts) return doc;
  return pendingDraft(cms, ownerOf(entity, doc.id as number)) ?? doc;
}

/**
 * The version of a live write. Pending drafts the write merged in become history, except for unpublish,
 * which keeps the pending draft pending. Returns whether a pending draft was taken live.
 */
export function recordLiveVersion(cms: CMS, owner: VersionOwner, saved: Doc, now: string, options: { keepPending?: boolean } = {}): boolean {
  const tookDraft = options.keepPending ? false : settlePendingDrafts(cms, owner) > 0;
  insertVersion(cms, owner, saved, { status: String(saved.status ?? 'draft'), pending: false, now });
  return tookDraft;
}

/** A save that stores only a draft: a pending version, the live row untouched; announces `draft`. */
export function saveDraftOnly(cms: CMS, scope: TransactionScope, owner: VersionOwner, draft: Doc, previous: Doc | null, now: string): Doc {
  const doc = { ...draft, status: 'draft', updatedAt: now };
  insertVersion(cms, owner, doc, { status: 'draft', pending: true, now });
  scope.emit({ type: 'draft', ...eventSubject(owner), doc, previousDoc: previous, timestamp: now });
  return doc;
}
