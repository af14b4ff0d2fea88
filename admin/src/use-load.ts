/**
 * The loading effect of the admin's views, written once: `read` runs when one of `deps` changes or `reload()`
 * is called; its answer becomes `data` and a failure's message `error` (cleared when the next read starts).
 * An answer that arrives after a newer read started, or after the view is gone, is dropped, so a slow
 * answer never overwrites a newer one. A `read` that returns nothing has nothing to load yet.
 *
 * Options: `fresh` forgets the last answer when a read starts (another document, not another page of the
 * same list); `onLoad` runs with each answer kept (a form filled with the document read).
 */
import { useEffect, useState } from 'preact/hooks';
import { message } from './format.ts';

export interface Loaded<T> {
  /** The last answer (kept while the next read runs), null before the first. */
  data: T | null;
  error: string | null;
  setData: (data: T | null) => void;
  setError: (error: string | null) => void;
  /** Reads again with the same dependencies. */
  reload: () => void;
}

export function useLoad<T>(
  read: () => Promise<T> | undefined,
  deps: unknown[],
  options: { fresh?: boolean; onLoad?: (data: T) => void } = {},
): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    if (options.fresh) setData(null);
    setError(null);
    const answer = read();
    if (!answer) return;
    let live = true;
    answer.then(
      (d) => {
        if (!live) return;
        setData(() => d);
        options.onLoad?.(d);
      },
      (e) => live && setError(message(e)),
    );
    return () => {
      live = false;
    };
  }, [...deps, reloads]);
  return { data, error, setData, setError, reload: () => setReloads((n) => n + 1) };
}
