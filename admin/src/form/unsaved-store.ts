/**
 * Typed values kept in localStorage per user, document and locale while a form is dirty, so a session
 * that ends mid-edit (expired, logged out elsewhere) loses nothing: after logging in again the form
 * offers them back. Removed after a save, an explicit discard, or leaving the page on purpose.
 */
import type { Doc } from '../api.ts';

const PREFIX = 'cms-unsaved:';

export interface UnsavedEntry {
  values: Doc;
  at: string;
}

export function unsavedKey(userId: unknown, path: string, locale: string | undefined): string {
  return `${PREFIX}${String(userId)}:${path}${locale ? `@${locale}` : ''}`;
}

export function keepUnsaved(key: string, values: Doc): void {
  try {
    localStorage.setItem(key, JSON.stringify({ values, at: new Date().toISOString() } satisfies UnsavedEntry));
  } catch {
    // Storage full or disabled: the form still works, only recovery is lost.
  }
}

export function readUnsaved(key: string): UnsavedEntry | null {
  try {
    const entry = JSON.parse(localStorage.getItem(key) ?? 'null') as UnsavedEntry | null;
    return entry && typeof entry.values === 'object' && entry.values ? entry : null;
  } catch {
    return null;
  }
}

export function forgetUnsaved(key: string): void {
  try {
    localStorage.removeItem(key);
  } catch {
    // Nothing kept.
  }
}
