/**
 * What one page hands to the next page it opens: the values a button pre-fills a create form with (a
 * join's "New … here"), or the note shown once after a create or a duplicate opens the new document. The shell keeps one per session (`AppState.handOver`); each kind holds one hand-over, taken
 * once by the next page of that path, and nothing is saved until the editor saves.
 */
import type { Doc } from '../api.ts';

export interface CreatedNote {
  text: string;
  /** An API key's secret, shown once. */
  secret?: string;
  /** The invitation link of a user created without a password. */
  invite?: string;
}

interface Kinds {
  prefill: Doc;
  note: CreatedNote;
}

export interface HandOver {
  give<K extends keyof Kinds>(kind: K, path: string, value: Kinds[K]): void;
  /** The value of `kind` handed to `path`, once (any other path's is dropped too). */
  take<K extends keyof Kinds>(kind: K, path: string): Kinds[K] | null;
}

export function createHandOver(): HandOver {
  const pending = new Map<keyof Kinds, { path: string; value: unknown }>();
  return {
    give: (kind, path, value) => void pending.set(kind, { path, value }),
    take(kind, path) {
      const entry = pending.get(kind);
      pending.delete(kind);
      return entry && entry.path === path ? (entry.value as Kinds[typeof kind]) : null;
    },
  };
}
