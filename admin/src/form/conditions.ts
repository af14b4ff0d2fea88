/**
 * `admin.condition` as the editor types. Conditions are functions in the server's config and never reach
 * the browser: the config marks a field that has one (`admin.condition: true`), and while any such field
 * exists the form asks the server which are shown, a short pause after the last keystroke
 * (docs/admin.md, "Conditions").
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { fieldConditions, type Doc, type Field } from '../api.ts';

const PAUSE_MS = 250;

/** Whether any field, at any depth (tabs, rows, groups, arrays, blocks), has a condition. */
export function hasConditions(fields: Field[]): boolean {
  return fields.some(
    (f) =>
      Boolean(f.admin?.condition) ||
      hasConditions(f.fields ?? []) ||
      (f.tabs ?? []).some((t) => hasConditions(t.fields)) ||
      (f.blocks ?? []).some((b) => hasConditions(b.fields)),
  );
}

/** Paths of fields with a condition mapped to whether they are shown for `values`; `{}` until known. */
export function useConditions(
  owner: { collection: string } | { global: string },
  fields: Field[],
  values: Doc,
): Record<string, boolean> {
  const [visible, setVisible] = useState<Record<string, boolean>>({});
  const wanted = useRef(false);
  wanted.current = useMemo(() => hasConditions(fields), [fields]);
  // Only a form with conditions asks the server, so only then does the whole document need writing out.
  const body = wanted.current ? JSON.stringify(values) : '';
  const key = 'global' in owner ? `g:${owner.global}` : `c:${owner.collection}`;

  useEffect(() => {
    if (!wanted.current) return;
    let live = true;
    const timer = setTimeout(() => {
      fieldConditions(owner, values)
        .then((r) => {
          if (!live) return;
          // Keep the same object when nothing changed, so the form does not render again for nothing.
          setVisible((prev) => (JSON.stringify(prev) === JSON.stringify(r.visible) ? prev : r.visible));
        })
        // Unknown (offline, an older server): every field stays shown, as with no condition.
        .catch(() => {});
    }, PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [key, body]);

  return visible;
}
