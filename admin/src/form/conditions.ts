/**
 * `admin.condition` as the editor types. Conditions are functions in the server's config and never reach
 * the browser: the config marks a field that has one (`admin.condition: true`), and while any such field
 * exists the form asks the server which are shown, a short pause after the last keystroke
 * (docs/admin.md, "Conditions").
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { fieldConditions, type Field } from '../api.ts';
import type { FormStore } from './form-store.ts';

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

/**
 * Paths of fields with a condition mapped to whether they are shown for the store's values; `{}` until
 * known. It follows the store itself: the form renders again only when the answer changes.
 */
export function useConditions(
  owner: { collection: string } | { global: string },
  fields: Field[],
  store: FormStore,
): Record<string, boolean> {
  const [visible, setVisible] = useState<Record<string, boolean>>({});
  const wanted = useMemo(() => hasConditions(fields), [fields]);
  const key = 'global' in owner ? `g:${owner.global}` : `c:${owner.collection}`;

  useEffect(() => {
    // Only a form with conditions asks the server, so only then does the whole document need writing out.
    if (!wanted) return;
    let asked = '';
    let round = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ask = () => {
      const values = store.get();
      const body = JSON.stringify(values);
      if (body === asked) return;
      asked = body;
      const mine = ++round;
      clearTimeout(timer);
      timer = setTimeout(() => {
        fieldConditions(owner, values)
          .then((r) => {
            if (mine !== round) return;
            // Keep the same object when nothing changed, so the form does not render again for nothing.
            setVisible((prev) => (JSON.stringify(prev) === JSON.stringify(r.visible) ? prev : r.visible));
          })
          // Unknown (offline, an older server): every field stays shown, as with no condition.
          .catch(() => {});
      }, PAUSE_MS);
    };
    ask();
    const unsubscribe = store.subscribe(ask);
    return () => {
      round = -1;
      unsubscribe();
      clearTimeout(timer);
    };
  }, [key, wanted, store]);

  return visible;
}
