/**
 * When a stored document's draft is autosaved: where the collection autosaves, once the document is loaded,
 * and never while another editor holds the lock or after this editor lost it (their save would be refused).
 */
import { docs, type CollectionConfig, type Doc, type Field } from '../../api.ts';
import { useApp } from '../../app-context.ts';
import { useAutosave, type AutosaveState } from '../../form/autosave.tsx';
import type { DocumentFormState } from '../../form/document-form.tsx';
import type { DocumentLock } from '../../form/document-lock.ts';
import { docTopic, ownSave } from './own-saves.ts';

export function useDraftAutosave(o: {
  c: CollectionConfig;
  /** null while creating: a new document is never autosaved. */
  id: string | null;
  fields: Field[];
  form: DocumentFormState;
  doc: Doc | null;
  lock: DocumentLock;
}): AutosaveState {
  const { c, id, lock } = o;
  const { locale } = useApp();
  return useAutosave({
    enabled:
      Boolean(c.drafts && c.autosave) &&
      id !== null &&
      o.doc !== null &&
      lock.state.status !== 'other' &&
      lock.state.status !== 'lost',
    interval: c.autosave?.interval ?? 800,
    fields: o.fields,
    form: o.form,
    save: (data) =>
      ownSave(docTopic(c.slug, id!), () =>
        docs
          .update(c.slug, id!, data, { locale, draft: true, autosave: true, lockToken: lock.token })
          .then((r) => r.doc),
      ),
  });
}
