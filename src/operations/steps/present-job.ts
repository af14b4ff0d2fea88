/** A job row → the job shape of docs/drafts-and-versions.md `{ id, action, at, collection | global, parent, state, createdAt }` (plus `error` once failed). */
import type { JobRow } from '../../versions/jobs-store.ts';

export function presentJob(row: JobRow): Record<string, unknown> {
  return {
    id: row.id,
    action: row.action,
    at: new Date(row.at).toISOString(),
    [row.kind]: row.slug,
    // A global has no document id.
    parent: row.kind === 'global' ? null : row.parent,
    state: row.state,
    createdAt: row.createdAt,
    ...(row.error ? { error: row.error } : {}),
  };
}
