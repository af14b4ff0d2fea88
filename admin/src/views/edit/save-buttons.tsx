/** How a document is saved: the draft buttons where the collection has drafts, else one Create or Save. */
import type { CollectionConfig, Doc } from '../../api.ts';
import type { DocumentFormState } from '../../form/document-form.tsx';
import { DraftButtons, type SaveMode } from './draft-controls.tsx';
import { t } from '../../i18n/i18n.ts';

export function SaveButtons(props: {
  c: CollectionConfig;
  /** null while creating. */
  id: string | null;
  form: DocumentFormState;
  live: string | null;
  draft: string | null;
  /** Someone else holds the lock. */
  readOnly: boolean;
  save: (mode: SaveMode) => void;
  /** Shows what an unpublish or a discarded draft left stored. */
  onChanged: (doc: Doc) => void;
}) {
  const { c, id, form } = props;
  const creating = id === null;
  if (c.drafts)
    return (
      <DraftButtons
        owner={creating ? null : { collection: c.slug, id }}
        live={props.live}
        draft={props.draft}
        busy={form.busy}
        dirty={form.dirty}
        readOnly={props.readOnly}
        save={props.save}
        onChanged={props.onChanged}
      />
    );
  return (
    <span class="save-actions">
      <button
        type="button"
        class="primary"
        onClick={() => props.save('save')}
        disabled={form.busy || props.readOnly || (!creating && !form.dirty)}
      >
        {form.busy ? t('edit.saving') : creating ? t('edit.create') : t('edit.save')}
      </button>
    </span>
  );
}
