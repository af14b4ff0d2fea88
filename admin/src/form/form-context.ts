/** What every field input of one form shares: the errors by path, and a way to report client-side ones. */
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Field } from '../api.ts';

export interface FormState {
  /** Error message by dotted path (`title`, `seo.title`, `items.0.label`), from the server's 400 answer. */
  errors: Record<string, string>;
  /** Errors found in the browser (unparsable JSON); saving is refused while any exists. */
  setClientError: (path: string, message: string | null) => void;
  disabled: boolean;
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

export const inputId = (path: string) => `field-${path.replace(/[^a-zA-Z0-9_-]/g, '-')}`;

/** How many errors sit at or below any of `paths` (a collapsed row or a tab shows the count). */
export function errorsUnder(errors: Record<string, string>, paths: string[]): number {
  let n = 0;
  for (const key of Object.keys(errors)) if (paths.some((p) => key === p || key.startsWith(`${p}.`))) n++;
  return n;
}

export const errorCountText = (n: number) => (n === 1 ? '1 error' : `${n} errors`);
