/**
 * The document a collection's edit view shows: read in the locale shown (its pending draft where the
 * collection has drafts), or, for a new one, a blank form filled with what another page handed over (a
 * join's "New … here"). It is read again when the locale changes or after the editor takes over someone
 * else's lock.
 */
import { useState } from 'preact/hooks';
import { ApiError, docs, type CollectionConfig, type Doc, type Field } from '../../api.ts';
import { useApp } from '../../app-context.ts';
import type { DocumentFormState } from '../../form/document-form.tsx';
import { emptyDoc } from '../../form/values.ts';
import { labelParams, singularLabel } from '../../format.ts';
import { t } from '../../i18n/i18n.ts';
import { useLoad } from '../../use-load.ts';

export interface EditedDocument {
  /** What is stored; null while it loads, and while creating. */
  doc: Doc | null;
  loadError: string | null;
  /** How many saved states were shown: the schedule and versions panels read again when it grows. */
  saves: number;
  /** Shows `doc` in the form as what is stored. */
  show: (doc: Doc) => void;
  /** Shows a new saved state (a save, a restore, a publish, a change made elsewhere). */
  showSaved: (doc: Doc) => void;
  /** Reads the document again. */
  reload: () => void;
}

export function useEditedDocument(
  c: CollectionConfig,
  id: string | null,
  fields: Field[],
  form: DocumentFormState,
): EditedDocument {
  const { locale, handOver } = useApp();
  const [saves, setSaves] = useState(0);
  const path = `/collections/${c.slug}`;
  const loaded = useLoad(
    () => {
      form.clearErrors();
      if (id === null) {
        const blank = c.builtIn === 'users' ? newUserDefaults(c, emptyDoc(fields)) : emptyDoc(fields);
        form.reset(blank);
        const copy = handOver.take('prefill', `${path}/create`);
        if (copy) form.setValues({ ...blank, ...copy });
        return;
      }
      return docs.get(c.slug, id, { locale, draft: c.drafts }).catch((e) => {
        throw e instanceof ApiError && e.status === 404
          ? new Error(t('edit.missing', labelParams(singularLabel(c))))
          : e;
      });
    },
    [c.slug, id, locale],
    { fresh: true, onLoad: (d) => form.reset(d) },
  );
  const { data: doc, error: loadError, setData: setDoc } = loaded;

  const show = (d: Doc) => {
    setDoc(d);
    form.reset(d);
  };
  const showSaved = (d: Doc) => {
    show(d);
    setSaves((n) => n + 1);
  };
  return { doc, loadError, saves, show, showSaved, reload: loaded.reload };
}

/**
 * The users collection's defaults as docs/accounts.md states them (the config endpoint sends no defaults):
 * role `editor` when that role exists, else the last one; active.
 */
function newUserDefaults(c: CollectionConfig, blank: Doc): Doc {
  const roles = c.fields.find((f) => f.name === 'role')?.options?.map((o) => o.value) ?? [];
  const role = roles.includes('editor') ? 'editor' : roles[roles.length - 1];
  return { ...blank, role: blank.role ?? role ?? null, active: true };
}
