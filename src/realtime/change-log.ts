/**
 * Writes every announced change into the change log (`_cms_events`) inside the change's own transaction,
 * so that what realtime subscribers are told commits or rolls back with the change, whoever wrote it: a
 * request, the job loop, a CLI or Local API process, another instance. Subscribers follow the log by id
 * (./change-feed.ts); it is also what a reconnecting client's `Last-Event-ID` replays from.
 */
import type { CMS } from '../cms.ts';
import type { ChangeEvent } from '../events/change-events.ts';
import type { Queryable } from '../db/store.ts';

/** How long entries are kept: the replay window of `Last-Event-ID`. */
export const REPLAY_WINDOW_MS = 5 * 60_000;

export type LoggedChange = {
  id: number;
  at: number;
  type: 'create' | 'update' | 'delete' | 'publish' | 'unpublish';
  kind: 'collection' | 'global';
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

export function recordChanges(cms: CMS): void {
  cms.events.on(async (event, scope) => {
    const { type, draft } = logged(event);
    const tx: Queryable = scope.tx;
    if (tx.dialect.orderedAppend) await tx.run(tx.dialect.orderedAppend);
    await tx.run(
      'INSERT INTO "_cms_events" ("at", "type", "kind", "slug", "docId", "draft", "deleted") VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        cms.clock.now(),
        type,
        event.global ? 'global' : 'collection',
        event.global ?? event.collection!,
        event.id ?? 0,
        draft,
        type === 'delete' ? JSON.stringify(event.doc) : null,
      ],
    );
  });
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

/** The job loop's part: entries older than the replay window go. */
export async function pruneChangeLog(cms: CMS): Promise<number> {
  const { changes } = await cms.store.run('DELETE FROM "_cms_events" WHERE "at" < ?', [
    cms.clock.now() - REPLAY_WINDOW_MS,
  ]);
  return changes;
}
