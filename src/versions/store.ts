/**
 * Version rows in `_cms_versions`: one per save of a drafts collection or global. A version is either
 * the snapshot of a live write (`pending = 0`) or a draft saved over the live row (`pending = 1`) that
 * has not been published or discarded yet. `latest` marks the newest version of its document.
 * `db` is the store, or the `tx` of the write these rows belong to.
 */
import type { versions } from '../db/system-schema.ts';
import type { Entity } from '../config/types.ts';
import type { Queryable } from '../db/store.ts';

export type VersionRow = typeof versions.$inferSelect;
type Doc = Record<string, unknown>;

/** Whose versions: a collection document (its id) or a global (parent 0). */
export type VersionOwner = { entity: Entity; parent: number };

const OWNED_BY = `"kind" = ? AND "slug" = ? AND "parent" = ?`;
const owned = (owner: VersionOwner) => [owner.entity.kind, owner.entity.slug, owner.parent];

export async function insertVersion(
  db: Queryable,
  owner: VersionOwner,
  doc: Doc,
  options: { status: string; pending: boolean; now: string; author: number | null; autosave?: boolean },
): Promise<VersionRow> {
  const row = (await db.get<VersionRow>(
    `INSERT INTO "_cms_versions" ("kind", "slug", "parent", "version", "status", "pending", "latest", "createdAt", "updatedAt", "author", "autosave")
     VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) RETURNING *`,
    [
      ...owned(owner),
      JSON.stringify(doc),
      options.status,
      options.pending ? 1 : 0,
      options.now,
      options.now,
      options.author,
      options.autosave ? 1 : 0,
    ],
  ))!;
  await db.run(`UPDATE "_cms_versions" SET "latest" = 0 WHERE ${OWNED_BY} AND "latest" = 1 AND "id" <> ?`, [
    ...owned(owner),
    row.id,
  ]);
  await pruneVersions(db, owner, owner.entity.maxVersions);
  return row;
}

/**
 * An autosaved draft: when the newest version is itself a pending autosave, it is updated in place, so a
 * run of autosaves leaves one version; otherwise (after a manual save or a publish) a new one starts.
 */
export async function saveAutosaveVersion(
  db: Queryable,
  owner: VersionOwner,
  doc: Doc,
  options: { now: string; author: number | null },
): Promise<void> {
  const latest = await db.get<VersionRow>(
    `SELECT * FROM "_cms_versions" WHERE ${OWNED_BY} AND "latest" = 1 ORDER BY "id" DESC LIMIT 1`,
    owned(owner),
  );
  if (latest && latest.autosave === 1 && latest.pending === 1) {
    await db.run(`UPDATE "_cms_versions" SET "version" = ?, "updatedAt" = ?, "author" = ? WHERE "id" = ?`, [
      JSON.stringify(doc),
      options.now,
      options.author,
      latest.id,
    ]);
    return;
  }
  await insertVersion(db, owner, doc, { status: 'draft', pending: true, autosave: true, ...options });
}

/** The newest pending draft of one document, if any. */
export async function newestPendingDraft(db: Queryable, owner: VersionOwner): Promise<VersionRow | undefined> {
  return (
    (await db.get<VersionRow>(
      `SELECT * FROM "_cms_versions" WHERE ${OWNED_BY} AND "pending" = 1 ORDER BY "id" DESC LIMIT 1`,
      owned(owner),
    )) ?? undefined
  );
}

/** Pending drafts a live write took in become ordinary history. */
export async function settlePendingDrafts(db: Queryable, owner: VersionOwner): Promise<number> {
  return (await db.run(`UPDATE "_cms_versions" SET "pending" = 0 WHERE ${OWNED_BY} AND "pending" = 1`, owned(owner)))
    .changes;
}

/** Removes the pending draft (every pending version of the document); returns how many rows went. */
export async function deletePendingDrafts(db: Queryable, owner: VersionOwner): Promise<number> {
  const removed = (await db.run(`DELETE FROM "_cms_versions" WHERE ${OWNED_BY} AND "pending" = 1`, owned(owner)))
    .changes;
  if (removed) await markNewestAsLatest(db, owner);
  return removed;
}

async function markNewestAsLatest(db: Queryable, owner: VersionOwner): Promise<void> {
  const newest = await db.get<{ id: number }>(
    `SELECT "id" FROM "_cms_versions" WHERE ${OWNED_BY} ORDER BY "id" DESC LIMIT 1`,
    owned(owner),
  );
  if (newest) await db.run(`UPDATE "_cms_versions" SET "latest" = 1 WHERE "id" = ?`, [newest.id]);
}

export async function countVersions(db: Queryable, owner: VersionOwner): Promise<number> {
  return (await db.get<{ n: number }>(
    `SELECT CAST(count(*) AS INTEGER) AS "n" FROM "_cms_versions" WHERE ${OWNED_BY}`,
    owned(owner),
  ))!.n;
}

/** Newest first. */
export function listVersions(db: Queryable, owner: VersionOwner, limit: number, offset: number): Promise<VersionRow[]> {
  return db.all<VersionRow>(`SELECT * FROM "_cms_versions" WHERE ${OWNED_BY} ORDER BY "id" DESC LIMIT ? OFFSET ?`, [
    ...owned(owner),
    limit,
    offset,
  ]);
}

/** One version of this document; a version of another document is not found. */
export async function findVersion(db: Queryable, owner: VersionOwner, id: number): Promise<VersionRow | undefined> {
  return (
    (await db.get<VersionRow>(`SELECT * FROM "_cms_versions" WHERE ${OWNED_BY} AND "id" = ?`, [...owned(owner), id])) ??
    undefined
  );
}

/**
 * Keeps at most `max` versions (0 keeps all), dropping the oldest. The version that is live (newest
 * non-pending) and the pending draft (newest pending) are never dropped, nor the versions releases hold
 * on to (releasedVersions).
 */
export async function pruneVersions(db: Queryable, owner: VersionOwner, max: number): Promise<void> {
  if (!max || max < 1) return;
  const excess = (await countVersions(db, owner)) - max;
  if (excess <= 0) return;
  const keep: number[] = await releasedVersions(db, owner);
  for (const pending of [0, 1]) {
    const newest = await db.get<{ id: number }>(
      `SELECT "id" FROM "_cms_versions" WHERE ${OWNED_BY} AND "pending" = ? ORDER BY "id" DESC LIMIT 1`,
      [...owned(owner), pending],
    );
    if (newest) keep.push(newest.id);
  }
  const kept = db.dialect.inList('"id"', keep);
  const oldest = (
    await db.all<{ id: number }>(
      `SELECT "id" FROM "_cms_versions" WHERE ${OWNED_BY} AND NOT (${kept.sql}) ORDER BY "id" ASC LIMIT ?`,
      [...owned(owner), ...kept.params, excess],
    )
  ).map((r) => r.id);
  if (oldest.length) {
    const dropped = db.dialect.inList('"id"', oldest);
    await db.run(`DELETE FROM "_cms_versions" WHERE ${dropped.sql}`, dropped.params);
  }
}

/**
 * The document's versions that releases need (docs/releases.md): the one an item of a release not yet
 * published will make live, and the one a published release's revert would put back (recorded as the
 * publish begins, so its own new version cannot prune it).
 */
async function releasedVersions(db: Queryable, owner: VersionOwner): Promise<number[]> {
  const rows = await db.all<{ pinned: number | null; previous: number | null }>(
    `SELECT CASE WHEN "r"."status" = 'published' THEN NULL ELSE "i"."version" END AS "pinned", "i"."previousVersion" AS "previous"
     FROM "_cms_release_items" "i" JOIN "_cms_releases" "r" ON "r"."id" = "i"."release"
     WHERE "i"."kind" = ? AND "i"."slug" = ? AND "i"."parent" = ?`,
    owned(owner),
  );
  return rows
    .flatMap((r) => [r.pinned, r.previous])
    .filter((id) => id !== null)
    .map(Number);
}

/** A deleted document takes its history with it (ids may be reused later). */
export async function deleteAllVersions(db: Queryable, owner: VersionOwner): Promise<void> {
  await db.run(`DELETE FROM "_cms_versions" WHERE ${OWNED_BY}`, owned(owner));
}

/** One version of any document of a collection, by its own id (Payload's `/:collection/versions/:id`). */
export async function findCollectionVersion(
  db: Queryable,
  collection: Entity,
  id: number,
): Promise<VersionRow | undefined> {
  return (
    (await db.get<VersionRow>(`SELECT * FROM "_cms_versions" WHERE "kind" = 'collection' AND "slug" = ? AND "id" = ?`, [
      collection.slug,
      id,
    ])) ?? undefined
  );
}
