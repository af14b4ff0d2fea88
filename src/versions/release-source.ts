/**
 * What a list or count with `release=` reads instead of the collection's table (docs/releases.md): every
 * live row, its columns taken from the pinned version where a release publishes the document (status
 * `published`), its status set back to `draft` where a release unpublishes it, as publishing those releases
 * would leave it. `where`, `sort`, the count and access filters then run on that content unchanged.
 */
import type { SanitizedCollection } from '../config/types.ts';
import { quote } from '../query/where.ts';
import type { Dialect, SQLPart } from '../db/store.ts';
import { versionColumns } from './draft-source.ts';

/** For one collection, what the releases do: document id to the pinned version's id, and documents unpublished. */
export type ReleaseOverlay = { publish: Map<number, number>; unpublish: Set<number> };

export function releaseSource(dialect: Dialect, collection: SanitizedCollection, overlay: ReleaseOverlay): SQLPart {
  const unpublished = dialect.inList('t."id"', [...overlay.unpublish]);
  // `+` keeps the id list from driving the index: each row seeks its document's few versions, then checks
  // them against the list, instead of seeking every listed id for every row.
  const pinned = dialect.inList('+v."id"', [...overlay.publish.values()]);
  const status = `CASE WHEN ${unpublished.sql} THEN 'draft' WHEN d."version" IS NOT NULL THEN 'published' ELSE t."status" END`;
  const sql =
    `(SELECT ${versionColumns(dialect, collection, { status })} FROM ${quote(collection.table)} t LEFT JOIN (` +
    `SELECT v."parent", v."version" FROM "_cms_versions" v WHERE v."kind" = 'collection' AND v."slug" = ? AND ${pinned.sql}` +
    `) d ON d."parent" = t."id")`;
  // The select list (the status) comes before the join in the statement, so its parameters do too. Naming
  // the collection lets each row find its pinned version through the versions' (kind, slug, parent) index.
  return { sql, params: [...unpublished.params, collection.slug, ...pinned.params] };
}
