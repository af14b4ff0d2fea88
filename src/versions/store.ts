/**
 * Version rows in `_cms_versions`: one per save of a drafts collection or global. A version is either
 * the snapshot of a live write (`pending = 0`) or a draft saved over the live row (`pending = 1`) that
 * has not been published or discarded yet. `latest` marks the newest version of its document.
 */
import { and, asc, count, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { versions } from '../db/system-schema.ts';
import type { Entity } from '../config/types.ts';
import type { CMS } from '../cms.ts';

export type VersionRow = typeof versions.$inferSelect;
type Doc = Record<string, unknown>;

/** Whose versions: a collection document (its id) or a global (parent 0). */
export type VersionOwner = { entity: Entity; parent: number };

const ownedBy = (owner: VersionOwner) =>
  and(eq(versions.kind, owner.entity.kind), eq(versions.slug, owner.entity.slug), eq(versions.parent, owner.parent));

export function insertVersion(cms: CMS, owner: VersionOwner, doc: Doc, options: { status: string; pending: boolean; now: string }): VersionRow {
  const row = cms.db.insert(versions).values({
    kind: owner.entity.kind,
    slug: owner.entity.slug,
    parent: owner.parent,
    version: JSON.stringify(doc),
    status: options.status,
    pending: options.pending ? 1 : 0,
    latest: 1,
    createdAt: options.now,
    updatedAt: options.now,
  }).returning().get();
  cms.db.update(versions).set({ latest: 0 }).where(and(ownedBy(owner), eq(versions.latest, 1), sql`${versions.id} <> ${row.id}`)).run();
  pruneVersions(cms, owner, owner.entity.maxVersions);
  return row;
}

/** The newest pending draft of one document, if any. */
export function newestPendingDraft(cms: CMS, owner: VersionOwner): VersionRow | undefined {
  return cms.db.select().from(versions).where(and(ownedBy(owner), eq(versions.pending, 1))).orderBy(desc(versions.id)).limit(1).get();
}

/** Pending drafts a live write took in become ordinary history. */
export function settlePendingDrafts(cms: CMS, owner: VersionOwner): number {
  return cms.db.update(versions).set({ pending: 0 }).where(and(ownedBy(owner), eq(versions.pending, 1))).returning({ id: versions.id }).all().length;
}

/** Removes the pending draft (every pending version of the document); returns how many rows went. */
export function deletePendingDrafts(cms: CMS, owner: VersionOwner): number {
  const removed = cms.db.delete(versions).where(and(ownedBy(owner), eq(versions.pending, 1))).returning({ id: versions.id }).all().length;
  if (removed) markNewestAsLatest(cms, owner);
  return removed;
}

function markNewestAsLatest(cms: CMS, owner: VersionOwner): void {
  const newest = cms.db.select({ id: versions.id }).from(versions).where(ownedBy(owner)).orderBy(desc(versions.id)).limit(1).get();
  if (newest) cms.db.update(versions).set({ latest: 1 }).where(eq(versions.id, newest.id)).run();
}

export function countVersions(cms: CMS, owner: VersionOwner): number {
  return cms.db.select({ n: count() }).from(versions).where(ownedBy(owner)).get()!.n;
}

/** Newest first. */
export function listVersions(cms: CMS, owner: VersionOwner, limit: number, offset: number): VersionRow[] {
  return cms.db.select().from(versions).where(ownedBy(owner)).orderBy(desc(versions.id)).limit(limit).offset(offset).all();
}

/** One version of this document; a version of another document is not found. */
export function findVersion(cms: CMS, owner: VersionOwner, id: number): VersionRow | undefined {
  return cms.db.select().from(versions).where(and(ownedBy(owner), eq(versions.id, id))).get();
}

/**
 * Keeps at most `max` versions (0 keeps all), dropping the oldest. The version that is live (newest
 * non-pending) and the pending draft (newest pending) are never dropped.
 */
export function pruneVersions(cms: CMS, owner: VersionOwner, max: number): void {
  if (!max || max < 1) return;
  const excess = countVersions(cms, owner) - max;
  if (excess <= 0) return;
  const keep = [0, 1].map((pending) =>
    cms.db.select({ id: versions.id }).from(versions).where(and(ownedBy(owner), eq(versions.pending, pending))).orderBy(desc(versions.id)).limit(1).get()?.id,
  ).filter((id): id is number => id !== undefined);
  const oldest = cms.db.select({ id: versions.id }).from(versions).where(and(ownedBy(owner), notInArray(versions.id, keep)))
    .orderBy(asc(versions.id)).limit(excess).all().map((r) => r.id);
  if (oldest.length) cms.db.delete(versions).where(inArray(versions.id, oldest)).run();
}

/** A deleted document takes its history with it (ids may be reused later). */
export function deleteAllVersions(cms: CMS, owner: VersionOwner): void {
  cms.db.delete(versions).where(ownedBy(owner)).run();
}
