/**
 * Release rows in `_cms_releases` and their items in `_cms_release_items` (docs/releases.md). Plain SQL
 * through the store or the `tx` of the write they belong to; no access rules here.
 */
import type { releaseItems, releases } from '../db/system-schema.ts';
import type { Queryable } from '../db/store.ts';

export type ReleaseRow = typeof releases.$inferSelect;
export type ReleaseItemRow = typeof releaseItems.$inferSelect;
export type ReleaseStatus = 'open' | 'scheduled' | 'published' | 'failed';
export type ItemAction = 'publish' | 'unpublish';

/** What a new item names: its document (kind, slug, parent as in `_cms_versions`) and what happens to it. */
export type NewItem = {
  kind: 'collection' | 'global';
  slug: string;
  parent: number;
  action: ItemAction;
  version: number | null;
};

export const RELEASES_TABLE = '_cms_releases';
export const ITEMS_TABLE = '_cms_release_items';

export async function insertRelease(
  db: Queryable,
  values: { title: string; description: string | null; createdBy: number | null; now: string; revertOf?: number },
): Promise<ReleaseRow> {
  return (await db.get<ReleaseRow>(
    `INSERT INTO "${RELEASES_TABLE}" ("title", "description", "status", "revertOf", "createdBy", "createdAt", "updatedAt")
     VALUES (?, ?, 'open', ?, ?, ?, ?) RETURNING *`,
    [values.title, values.description, values.revertOf ?? null, values.createdBy, values.now, values.now],
  ))!;
}

export async function findRelease(db: Queryable, id: number): Promise<ReleaseRow | undefined> {
  return (await db.get<ReleaseRow>(`SELECT * FROM "${RELEASES_TABLE}" WHERE "id" = ?`, [id])) ?? undefined;
}

/** Sets the given columns and `updatedAt`. */
export async function updateRelease(
  db: Queryable,
  id: number,
  values: Partial<Omit<ReleaseRow, 'id' | 'createdAt'>> & { updatedAt: string },
): Promise<void> {
  const names = Object.keys(values);
  await db.run(`UPDATE "${RELEASES_TABLE}" SET ${names.map((n) => `"${n}" = ?`).join(', ')} WHERE "id" = ?`, [
    ...names.map((n) => (values as Record<string, unknown>)[n] ?? null),
    id,
  ]);
}

export async function deleteRelease(db: Queryable, id: number): Promise<void> {
  await db.run(`DELETE FROM "${ITEMS_TABLE}" WHERE "release" = ?`, [id]);
  await db.run(`DELETE FROM "${RELEASES_TABLE}" WHERE "id" = ?`, [id]);
}

/** An item with what its presentation needs: the newest version of its document, and the pinned version's title. */
export type ItemWithVersions = ReleaseItemRow & { newestVersion: number | null; pinnedTitle: unknown };

/** Where an entity's title stands in its stored versions (present-release.ts decides which field). */
export type TitlePath = { kind: string; slug: string; path: string[] };

/** The items of a release in the order they were added. */
export function itemsOf(db: Queryable, release: number): Promise<ReleaseItemRow[]> {
  return db.all<ReleaseItemRow>(`SELECT * FROM "${ITEMS_TABLE}" WHERE "release" = ? ORDER BY "id"`, [release]);
}

/**
 * As itemsOf, with each item's newest version id and its pinned version's title, read from the stored JSON
 * by the database: a release of thousands of items is answered without parsing each pinned document.
 */
export function itemsWithVersions(db: Queryable, release: number, titles: TitlePath[]): Promise<ItemWithVersions[]> {
  const title = titles.length
    ? `CASE ${titles
        .map(
          (t) => `WHEN "i"."kind" = ? AND "i"."slug" = ? THEN ${db.dialect.jsonValue('"p"."version"', t.path, 'text')}`,
        )
        .join(' ')} END`
    : 'NULL';
  return db.all<ItemWithVersions>(
    `SELECT "i".*,
       (SELECT max("v"."id") FROM "_cms_versions" "v" WHERE "v"."kind" = "i"."kind" AND "v"."slug" = "i"."slug" AND "v"."parent" = "i"."parent") AS "newestVersion",
       ${title} AS "pinnedTitle"
     FROM "${ITEMS_TABLE}" "i" LEFT JOIN "_cms_versions" "p" ON "p"."id" = "i"."version"
     WHERE "i"."release" = ? ORDER BY "i"."id"`,
    [...titles.flatMap((t) => [t.kind, t.slug]), release],
  );
}

/** How many items each of these releases holds. */
export async function itemCounts(db: Queryable, ids: number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  if (ids.length === 0) return counts;
  const list = db.dialect.inList('"release"', ids);
  const rows = await db.all<{ release: number; n: number }>(
    `SELECT "release", CAST(count(*) AS INTEGER) AS "n" FROM "${ITEMS_TABLE}" WHERE ${list.sql} GROUP BY "release"`,
    list.params,
  );
  for (const row of rows) counts.set(Number(row.release), Number(row.n));
  return counts;
}

/** Adds an item, or replaces the item of the same document (pinned anew). Answers the item's row. */
export async function putItem(db: Queryable, release: number, item: NewItem, now: string): Promise<ReleaseItemRow> {
  await db.run(`DELETE FROM "${ITEMS_TABLE}" WHERE "release" = ? AND "kind" = ? AND "slug" = ? AND "parent" = ?`, [
    release,
    item.kind,
    item.slug,
    item.parent,
  ]);
  return (await db.get<ReleaseItemRow>(
    `INSERT INTO "${ITEMS_TABLE}" ("release", "kind", "slug", "parent", "action", "version", "createdAt")
     VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    [release, item.kind, item.slug, item.parent, item.action, item.version, now],
  ))!;
}

/** Removes one item of one release; answers whether it was there. */
export async function removeItem(db: Queryable, release: number, item: number): Promise<boolean> {
  return (await db.run(`DELETE FROM "${ITEMS_TABLE}" WHERE "release" = ? AND "id" = ?`, [release, item])).changes > 0;
}

/**
 * What was live before a publish, kept on the item for a later revert: whether the document was published,
 * and its live version (the newest that is not a pending draft), read by the same statement.
 */
export async function recordPrevious(db: Queryable, item: ReleaseItemRow, wasPublished: boolean): Promise<void> {
  await db.run(
    `UPDATE "${ITEMS_TABLE}" SET "wasPublished" = ?, "previousVersion" = (
       SELECT max("id") FROM "_cms_versions" WHERE "kind" = ? AND "slug" = ? AND "parent" = ? AND "pending" = 0
     ) WHERE "id" = ?`,
    [wasPublished ? 1 : 0, item.kind, item.slug, item.parent, item.id],
  );
}

/** How long a runner owns a due release it claimed; past it, another runner may take it again. */
export const RELEASE_LEASE_MS = 5 * 60_000;

/**
 * Claims one scheduled release whose time has come (and that no runner holds): its lease is set, so runners
 * in several processes each take a different one. PostgreSQL's runners skip a row another one has locked.
 */
export async function claimDueRelease(db: Queryable, now: number): Promise<ReleaseRow | undefined> {
  return (
    (await db.get<ReleaseRow>(
      `UPDATE "${RELEASES_TABLE}" SET "lockedUntil" = ? WHERE "id" = (
        SELECT "id" FROM "${RELEASES_TABLE}" WHERE "status" = 'scheduled' AND "publishAt" <= ?
          AND ("lockedUntil" IS NULL OR "lockedUntil" < ?) ORDER BY "publishAt" ASC, "id" ASC LIMIT 1${db.dialect.skipLocked}
      ) RETURNING *`,
      [now + RELEASE_LEASE_MS, now, now],
    )) ?? undefined
  );
}

/** Which of these releases exist, with their status. */
export function releaseStatuses(db: Queryable, ids: number[]): Promise<{ id: number; status: ReleaseStatus }[]> {
  const list = db.dialect.inList('"id"', ids);
  return db.all(`SELECT "id", "status" FROM "${RELEASES_TABLE}" WHERE ${list.sql}`, list.params);
}

/** An item as a preview reads it: which release holds it, which document, what it does, the pinned version. */
export type PreviewItem = { release: number; parent: number; action: ItemAction; version: number | null };

/** The items of these releases that name documents of one collection (or the global). */
export function previewItems(
  db: Queryable,
  ids: number[],
  kind: 'collection' | 'global',
  slug: string,
): Promise<PreviewItem[]> {
  const list = db.dialect.inList('"release"', ids);
  return db.all<PreviewItem>(
    `SELECT "release", "parent", "action", "version" FROM "${ITEMS_TABLE}" WHERE ${list.sql} AND "kind" = ? AND "slug" = ?`,
    [...list.params, kind, slug],
  );
}
