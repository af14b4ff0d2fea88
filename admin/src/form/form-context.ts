/** What every field input of one form shares: the errors by path, and a way to report client-side ones. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Doc, Field } from '../api.ts';

export interface FormState {
  /** Error message by dotted path (`title`, `seo.title`, `items.0.label`), from the server's 400 answer. */
  errors: Record<string, string>;
  /** Errors found in the browser (unparsable JSON); saving is refused while any exists. */
  setClientError: (path: string, message: string | null) => void;
  disabled: boolean;
  /** Someone else holds the document's lock: nothing may be changed (unlike `disabled`, not while saving). */
  readOnly?: boolean;
  /** The locale being edited, shown on localized fields. */
  locale?: string;
  /** Field names the current user may not change (e.g. `role` for non-admins). */
  lockedFields?: Set<string>;
  /** Fields with an `admin.condition`, by path: false hides the field (form/conditions.ts). */
  visible?: Record<string, boolean>;
  /** The document being edited, once it exists: join fields list what points at it. */
  owner?: { collection: string; id: string | number };
}

export const FormContext = createContext<FormState>({ errors: {}, setClientError: () => {}, disabled: false });

export const useForm = () => useContext(FormContext);

export interface FieldProps<V = unknown> {
  field: Field;
  /** Dotted path from the document root; errors and element ids are keyed by it. */
  path: string;
  value: V;
  onChange: (value: V) => void;
}

/**
 * Where field editors write: one value at a dotted path, into the form's values as they are at that moment
 * (a functional update), never into a copy an editor kept from an earlier render. `at(path)` answers the same
 * function for the same path every time, so editors given it stay equal between renders and skip them.
 */
export interface Writer {
  at(path: string): (value: unknown) => void;
}

export const WriteContext = createContext<Writer | null>(null);

/** A copy of `doc` with `value` at `segments`, copying only the objects and lists on the way. */
export function setIn(doc: unknown, segments: string[], value: unknown): unknown {
  if (segments.length === 0) return value;
  const [head, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(doc)) {
    const i = Number(head);
    const next = [...doc];
    next[i] = setIn(doc[i], rest, value);
    return next;
  }
  const base = doc && typeof doc === 'object' ? (doc as Doc) : {};
  return { ...base, [head]: setIn(base[head], rest, value) };
}

/**
 * A writer over `update` (a state setter taking a function of the current values). Paths start with
 * `prefix` when the form's inputs are named below one (a drawer's form, a block inside rich text).
 */
export function pathWriter(update: (fn: (prev: Doc) => Doc) => void, prefix = ''): Writer {
  const cache = new Map<string, (value: unknown) => void>();
  return {
    at(path) {
      let write = cache.get(path);
      if (!write) {
        const rel = prefix && path.startsWith(`${prefix}.`) ? path.slice(prefix.length + 1) : path;
        const segments = rel.split('.');
        write = (value) => update((prev) => setIn(prev, segments, value) as Doc);
        cache.set(path, write);
      }
      return write;
    },
  };
}

export const inputId = (path: string) => `field-${path.replace(/[^a-zA-Z0-9_-]/g, '-')}`;

/** How many errors sit at or below any of `paths` (a collapsed row or a tab shows the count). */
export function errorsUnder(errors: Record<string, string>, paths: string[]): number {
  let n = 0;
  for (const key of Object.keys(errors)) if (paths.some((p) => key === p || key.startsWith(`${p}.`))) n++;
  return n;
}

export const errorCountText = (n: number) => (n === 1 ? '1 error' : `${n} errors`);
