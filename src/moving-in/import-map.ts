/**
 * The mapping that makes `cms import <source>` re-runnable: source item → the document written for it, with a
 * hash of the item as it was read. Read once per run into memory; a row is written in its document's transaction
 * (import-run.ts), so a run that stops midway leaves a mapping a rerun continues from.
 */
import type { Queryable } from '../db/store.ts';

export type Mapped = { collection: string; docId: string; hash: string };

const TABLE = '"_cms_import_map"';

export async function loadMapping(db: Queryable, source: string): Promise<Map<string, Mapped>> {
  const rows = await db.all<Mapped & { sourceId: string }>(
    `SELECT "sourceId", "collection", "docId", "hash" FROM ${TABLE} WHERE "source" = ?`,
    [source],
  );
  return new Map(rows.map((r) => [r.sourceId, { collection: r.collection, docId: r.docId, hash: r.hash }]));
}

export async function saveMapping(db: Queryable, source: string, sourceId: string, mapped: Mapped): Promise<void> {
  await db.run(
    `INSERT INTO ${TABLE} ("source", "sourceId", "collection", "docId", "hash") VALUES (?, ?, ?, ?, ?)
     ON CONFLICT ("source", "sourceId") DO UPDATE SET "collection" = excluded."collection", "docId" = excluded."docId", "hash" = excluded."hash"`,
    [source, sourceId, mapped.collection, mapped.docId, mapped.hash],
  );
}
