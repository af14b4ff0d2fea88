/**
 * Writes every announced change into the change log (`_cms_events`) inside the change's own transaction,
 * so that what realtime subscribers are told commits or rolls back with the change, whoever wrote it: a
 * request, the job loop, a CLI or Local API process, another instance. Subscribers follow the log by id
 * (./change-feed.ts); it is also what a reconnecting client's `Last-Event-ID` replays from.
 */
import type { CMS } from '../cms.ts';
import type { ChangeEvent } from '../events/change-events.ts';
import type { Queryable, Store } from '../db/store.ts';

/** How long entries are kept: the replay window of `Last-Event-ID`. */
export const REPLAY_WINDOW_MS = 5 * 60_000;

export type LoggedChange = {
  id: number;
  at: number;
  /**
   * `reset`: a restore replaced the data (`markRestore`) or documents were loaded in bulk without events
   * (`markBulkLoad`); every stream is told to start over.
   */
  type: 'create' | 'update' | 'delete' | 'publish' | 'unpublish' | 'reset';
  kind: 'collection' | 'global' | 'restore' | 'import';
  slug: string;
  docId: number;
  /** 1: only the pending draft changed (told to `draft=true` subscribers only). */
  draft: number;
  deleted: string | null;
};

/**
 * A save that changed only the draft is an `update` of the draft (a brand-new document saved as a draft is
 * a `create`: it exists, with status draft).
 */
function logged(event: ChangeEvent): { type: LoggedChange['type']; draft: number } {
  if (event.type !== 'draft') return { type: event.type, draft: 0 };
  return event.collection && !event.previousDoc ? { type: 'create', draft: 0 } : { type: 'update', draft: 1 };
}

/** Appends one entry to the log inside `tx`, in commit order where the engine needs it asked (orderedAppend). */
async function appendEntry(tx: Queryable, entry: Omit<LoggedChange, 'id'>): Promise<void> {
  if (tx.dialect.orderedAppend) await tx.run(tx.dialect.orderedAppend);
  await tx.run(
    'INSERT INTO "_cms_events" ("at", "type", "kind", "slug", "docId", "draft", "deleted") VALUES (?, ?, ?, ?, ?, ?, ?)',
    [entry.at, entry.type, entry.kind, entry.slug, entry.docId, entry.draft, entry.deleted],
  );
}

export function recordChanges(cms: CMS): void {
  cms.events.on(async (event, scope) => {
    const { type, draft } = logged(event);
    await appendEntry(scope.tx, {
      at: cms.clock.now(),
      type,
      kind: event.global ? 'global' : 'collection',
      slug: event.global ?? event.collection!,
      docId: event.id ?? 0,
      draft,
      deleted: type === 'delete' ? JSON.stringify(event.doc) : null,
    });
  });
}

/**
 * A bulk load (`cms import DIR`) writes documents without a change event each: one `reset` entry, in the
 * load's own transaction, tells every stream to read afresh once it commits.
 */
export function markBulkLoad(tx: Queryable, now: number): Promise<void> {
  return appendEntry(tx, { at: now, type: 'reset', kind: 'import', slug: '', docId: 0, draft: 0, deleted: null });
}

/** Entries of the log after `afterId`, oldest first (at most `limit`). */
export function changesAfter(store: Queryable, afterId: number, limit = 500): Promise<LoggedChange[]> {
  return store.all<LoggedChange>(
    'SELECT "id", "at", "type", "kind", "slug", "docId", "draft", "deleted" FROM "_cms_events" WHERE "id" > ? ORDER BY "id" LIMIT ?',
    [afterId, limit],
  );
}

export async function lastChangeId(store: Queryable): Promise<number> {
  const row = await store.get<{ last: number | null }>(
    'SELECT CAST(max("id") AS INTEGER) AS "last" FROM "_cms_events"',
  );
  return Number(row?.last ?? 0);
}

/** The last id the log handed out, entries pruned since counted (0: none yet). */
export async function lastChangeIdGiven(store: Queryable): Promise<number> {
  const { sql, params } = store.dialect.lastIdGiven('_cms_events');
  const given = await store.get<{ last: number | string | null }>(sql, params);
  return Math.max(Number(given?.last ?? 0), await lastChangeId(store));
}

/**
 * Ids left free after a restore that cannot tell how far the data it replaced had gone (that data is gone
 * too): clients may hold ids of changes made after the restored moment.
 */
export const RESTORE_ID_MARGIN = 1_000_000;

/**
 * After a restore (a backup, the replica, an engine move; docs/realtime.md "After a restore"): the log
 * goes on above every id the replaced data handed out (`before`, when it could be read, else with a
 * margin), starting with a `reset` entry, so that a client reconnecting with its `Last-Event-ID` misses
 * nothing that comes after and is told to start over. Answers the entry's id.
 */
export async function markRestore(store: Store, now: number, before: number | null): Promise<number> {
  const last = await lastChangeIdGiven(store);
  const id = Math.max(last, before ?? 0) + (before === null ? RESTORE_ID_MARGIN : 1);
  await store.run(
    'INSERT INTO "_cms_events" ("id", "at", "type", "kind", "slug", "docId", "draft") VALUES (?, ?, ?, ?, ?, ?, ?)',
    [id, now, 'reset', 'restore', '', 0, 0],
  );
  // PostgreSQL's identity moves past the id given here (SQLite's AUTOINCREMENT already has).
  await store.continueIdsAfterCopy(['_cms_events']);
  return id;
}

/**
 * Everything before the first entry still inside the window. Ids follow commit order, so the old entries
 * are the lowest ids: the primary key is walked from its start (one row read when nothing is due), and
 * `at` needs no index of its own to write on every change. An entry written with an earlier time than one
 * before it (a clock set back, another instance's clock) waits until the entries before it are due too.
 */
const PRUNE_BEFORE_WINDOW = `DELETE FROM "_cms_events" WHERE "id" < COALESCE(
  (SELECT "id" FROM "_cms_events" WHERE "at" >= ? ORDER BY "id" LIMIT 1),
  (SELECT max("id") + 1 FROM "_cms_events"))`;

/** The job loop's part: entries older than the replay window go. */
export async function pruneChangeLog(cms: CMS): Promise<number> {
  const { changes } = await cms.store.run(PRUNE_BEFORE_WINDOW, [cms.clock.now() - REPLAY_WINDOW_MS]);
  return changes;
}
