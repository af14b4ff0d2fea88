/**
 * The action bar in an edit view's header: the locale shown, whether the changes are saved, the live
 * preview's buttons, More actions (a stored document only) and the save buttons.
 */
import type { CollectionConfig, Doc, Field } from '../../api.ts';
import { useApp } from '../../app-context.ts';
import { AutosaveStatus, type AutosaveState } from '../../form/autosave.tsx';
import type { DocumentFormState } from '../../form/document-form.tsx';
import { LocaleSwitcher } from '../../form/locale-switcher.tsx';
import type { SaveMode } from './draft-controls.tsx';
import { DocumentMenu } from './document-menu.tsx';
import { LivePreviewButtons } from './live-preview-slot.tsx';
import { SaveButtons } from './save-buttons.tsx';
import { t } from '../../i18n/i18n.ts';

export function EditActions(props: {
  c: CollectionConfig;
  /** null while creating. */
  id: string | null;
  doc: Doc | null;
  fields: Field[];
  form: DocumentFormState;
  autosave: AutosaveState;
  /** null where the document cannot be previewed (yet). */
  preview: { open: boolean; onToggle: (open: boolean) => void } | null;
  live: string | null;
  draft: string | null;
  /** Someone else holds the lock: every action is off. */
  readOnly: boolean;
  save: (mode: SaveMode) => void;
  /** Shows what an unpublish or a discarded draft left stored. */
  onChanged: (doc: Doc) => void;
  /** Offers Copy to locale when given. */
  onCopyToLocale: (() => void) | null;
}) {
  const { c, id, form } = props;
  const { locale } = useApp();
  return (
    <div class="actions">
      <LocaleSwitcher dirty={form.dirty} fields={props.fields} />
      {/* Once published, "draft autosaved" no longer says what is stored; a failure or a save under way still shows. */}
      {c.autosave && id !== null && (props.draft === 'draft' || props.autosave.status !== 'idle') && (
        <AutosaveStatus state={props.autosave} />
      )}
      {form.dirty && !c.autosave && (
        <span class="unsaved" role="status">
          {t('edit.unsaved')}
        </span>
      )}
      {props.preview && id !== null && (
        <LivePreviewButtons
          owner={{ collection: c.slug, id }}
          locale={locale}
          open={props.preview.open}
          onToggle={props.preview.onToggle}
        />
      )}
      {id !== null && (
        <DocumentMenu
          c={c}
          id={id}
          doc={props.doc}
          form={form}
          readOnly={props.readOnly}
          onCopyToLocale={props.onCopyToLocale}
        />
      )}
      <SaveButtons
        c={c}
        id={id}
        form={form}
        live={props.live}
        draft={props.draft}
        readOnly={props.readOnly}
        save={props.save}
        onChanged={props.onChanged}
      />
    </div>
  );
}
