/**
 * The values of one form, outside Preact's state: field editors, the header's title and the checks that read
 * the values subscribe to what they show, so a key in one field renders that field's editor and whatever
 * reads its path, not the whole form and page around it (docs/admin.md, "Decisions": the form's store).
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { Doc } from '../api.ts';

export interface FormStore {
  /** The values as they are now. */
  get(): Doc;
  /** Replaces the values (or derives them from the current ones) and tells every subscriber. */
  set(next: Doc | ((prev: Doc) => Doc)): void;
  /** `listener` runs after every change; the answer unsubscribes. */
  subscribe(listener: () => void): () => void;
}

export function createFormStore(initial: Doc = {}): FormStore {
  let values = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => values,
    set(next) {
      const value = typeof next === 'function' ? next(values) : next;
      if (value === values) return;
      values = value;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * What `select` answers for the store's values, rendering the caller again only when that answer changes
 * (by `equal`). `select` may change between renders (it reads props); the latest one is used.
 */
export function useFormSelect<T>(
  store: FormStore,
  select: (values: Doc) => T,
  equal: (a: T, b: T) => boolean = Object.is,
): T {
  const [, rendered] = useState(0);
  const selected = select(store.get());
  const latest = useRef({ select, equal, selected });
  latest.current = { select, equal, selected };
  useLayoutEffect(() => {
    const check = () => {
      const now = latest.current;
      const next = now.select(store.get());
      if (now.equal(now.selected, next)) return;
      now.selected = next;
      rendered((n) => n + 1);
    };
    // A change between this render and the subscription is not missed.
    check();
    return store.subscribe(check);
  }, [store]);
  return selected;
}

/** Whether two plain objects hold the same values at the same keys (one level deep). */
export function shallowEqual(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.is(a[k], b[k]));
}

/** Whether two lists hold the same items in the same order. */
export const sameItems = <T>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((x, i) => Object.is(x, b[i]));
