/**
 * New documents' index rows, where the engine's index costs most per transaction (SQLite: FTS5 writes a new
 * segment of its index at every commit and merges them later, which cost a lone create more than its own
 * writes). A create writes its rows to a plain table in its own transaction instead, so they are exactly as
 * durable as the document (a crash loses none and needs no rebuild), and they are moved into the index many
 * at a time: by the write that finds `PENDING_BATCH` of them waiting, and by any search before it reads the
 * index, so a search still finds every committed write. docs/search.md, "How writes reach the index".
 */
import type { CMS } from '../cms.ts';
import type { SanitizedCollection } from '../config/types.ts';
import type { PendingSQL } from '../db/search-sql.ts';
import type { Queryable } from '../db/store.ts';
import { countChange } from '../db/change-triggers.ts';

/** How many rows wait at most (written by one process) before a write moves them into the index. */
export const PENDING_BATCH = 64;

/** The collection's table of waiting rows, where its engine keeps one. */
export const pendingOf = (db: Queryable, collection: SanitizedCollection, table: string): PendingSQL | undefined =>
  db.dialect.search.pending?.(table, collection.search!.fields.length);

/** Waiting tables known to exist, per instance: made outside a transaction, none can have rolled them back. */
const made = new WeakMap<CMS, Set<string>>();

/**
 * The collection's table of waiting rows, made where missing: an index built before such tables were kept,
 * opened by a start that leaves the indexes alone (`migrate` other than `auto`), has none yet.
 */
export async function pendingTable(
  cms: CMS,
  db: Queryable,
  collection: SanitizedCollection,
  table: string,
): Promise<PendingSQL | undefined> {
  const pending = pendingOf(db, collection, table);
  let known = made.get(cms);
  if (!known) made.set(cms, (known = new Set()));
  if (!pending || known.has(table)) return pending;
  await db.exec(pending.create);
  if (!('inTransaction' in db && db.inTransaction)) known.add(table);
  return pending;
}

/** Rows written to each waiting table by this process since it last moved them: a guide, not a count. */
const written = new WeakMap<CMS, Map<string, number>>();

/**
 * Moves every waiting row into the index, in `tx` (a transaction). A row of a document not above the
 * index's newest (an id given by hand) counts a change of the index, as it would have when written there
 * (src/search/kept-answers.ts).
 */
async function movePending(cms: CMS, tx: Queryable, pending: PendingSQL, table: string): Promise<void> {
  written.get(cms)?.delete(table);
  const ends = await tx.get<{ oldest: number | null; newest: number | null }>(
    `SELECT ${pending.oldestDoc} AS "oldest", ${tx.dialect.search.newestDoc(table)} AS "newest"`,
  );
  if (ends?.oldest == null) return;
  if (ends.newest != null && Number(ends.oldest) <= Number(ends.newest)) await countChange(tx, table);
  for (const statement of pending.move) await tx.run(statement);
}

/** After a create wrote `rows` rows to the waiting table, in its transaction `tx`: moves them once enough wait. */
export async function notePending(
  cms: CMS,
  tx: Queryable,
  pending: PendingSQL,
  table: string,
  rows: number,
): Promise<void> {
  let counts = written.get(cms);
  if (!counts) written.set(cms, (counts = new Map()));
  const waiting = (counts.get(table) ?? 0) + rows;
  counts.set(table, waiting);
  if (waiting >= PENDING_BATCH) await movePending(cms, tx, pending, table);
}

/**
 * Before a search reads the index: rows still waiting are moved in first (one transaction for all of them),
 * so every committed write is found. A search inside a transaction moves them in that transaction.
 */
export async function indexPending(cms: CMS, collection: SanitizedCollection, table: string): Promise<void> {
  const { store } = cms;
  const pending = collection.search ? await pendingTable(cms, store, collection, table) : undefined;
  if (
    !pending ||
    (await store.get<{ oldest: number | null }>(`SELECT ${pending.oldestDoc} AS "oldest"`))?.oldest == null
  )
    return;
  // The search still answers when the move fails (a full disk): from the index as it is, without them.
  await store
    .transaction((tx) => movePending(cms, tx, pending, table))
    .catch((error) => cms.log.warn(`search: rows waiting for the ${collection.slug} index not moved in: ${error}`));
}
