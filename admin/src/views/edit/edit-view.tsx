/**
 * Create or edit one document of a collection: the generated form, drafts/publish, schedule, versions,
 * duplicate, delete. This file puts the pieces together around the form: the document (edited-document.ts),
 * saving it (save-document.ts), its lock, autosave (draft-autosave.ts) and live updates, the header's
 * actions (edit-actions.tsx) and the column beside the form (document-aside.tsx).
 */
import { useMemo, useState } from 'preact/hooks';
import { docs, type AdminConfig, type CollectionConfig, type Doc, type Field } from '../../api.ts';
import { isAdmin, useApp } from '../../app-context.ts';
import {
  ErrorSummary,
  MissingBeforePublish,
  RecoveredBanner,
  useDocumentForm,
  useFieldContext,
  useSaveShortcut,
  type DocumentFormState,
} from '../../form/document-form.tsx';
import { useFormSelect } from '../../form/form-store.ts';
import { useConditions } from '../../form/conditions.ts';
import { useDocumentLock } from '../../form/document-lock.ts';
import { LockBanner } from './lock-banner.tsx';
import { unsavedKey } from '../../form/unsaved-store.ts';
import { FieldList } from '../../form/fields.tsx';
import { FormContext } from '../../form/form-context.ts';
import { dataFields } from '../../form/values.ts';
import { docLabel, labelParams, singularLabel } from '../../format.ts';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { MediaPreview } from './media-preview.tsx';
import { LazyView } from '../../lazy.tsx';
import { PasswordSection, type PasswordState } from '../account/password-section.tsx';
import { useLiveStatus, type SaveMode } from './draft-controls.tsx';
import { LivePreviewSlot, useLivePreviewOpen } from './live-preview-slot.tsx';
import { LiveChangeNotice, useLiveDocument } from './live-document.tsx';
import { useEditedDocument } from './edited-document.ts';
import { useSaveDocument } from './save-document.ts';
import { useDraftAutosave } from './draft-autosave.ts';
import { Breadcrumb } from './breadcrumb.tsx';
import { MediaCreate } from './media-create.tsx';
import { CreatedNoteAlert } from './created-note-alert.tsx';
import { EditActions } from './edit-actions.tsx';
import { DocumentAside } from './document-aside.tsx';
import { t } from '../../i18n/i18n.ts';

export function EditView(props: { collection: CollectionConfig; id: string | null }) {
  const c = props.collection;
  const { id } = props;
  const { user, locale, setLocale, config } = useApp();
  const [copying, setCopying] = useState(false);
  const creating = id === null;
  const isUsers = c.builtIn === 'users';
  const isMedia = c.builtIn === 'media';
  // Media's file facts are shown by the preview, not as disabled inputs.
  // The focal point and crop are set on the image itself (MediaPreview), never as raw numbers and JSON.
  const fields = useMemo(
    () => (isMedia ? c.fields.filter((f) => !f.admin?.readOnly && f.admin?.component !== 'focal') : c.fields),
    [c],
  );
  const locked = useMemo(() => (isUsers && !isAdmin(user) ? new Set(['role', 'active']) : undefined), [isUsers, user]);
  const [password, setPassword] = useState<PasswordState>({ open: creating, value: '', confirm: '' });
  const form = useDocumentForm(
    fields,
    password.value !== '',
    locked,
    unsavedKey(user.id, `/collections/${c.slug}/${id ?? 'create'}`, locale),
  );
  const edited = useEditedDocument(c, id, fields, form);
  const { doc } = edited;
  const owner = useMemo(() => (creating ? undefined : { collection: c.slug, id: id! }), [c.slug, id]);
  const lock = useDocumentLock(owner ?? null, user.id);
  // Someone else holds the lock, or took it from this editor: read-only either way.
  const someoneElse = lock.state.status === 'other' || lock.state.status === 'lost';
  const visible = useConditions({ collection: c.slug }, fields, form.store);
  const fieldContext = useFieldContext(form, { visible, owner, readOnly: someoneElse });
  const autosave = useDraftAutosave({ c, id, fields, form, doc, lock });
  const { save, note } = useSaveDocument({
    c,
    id,
    fields,
    form,
    password,
    setPassword,
    someoneElse,
    lockToken: lock.token,
    showSaved: edited.showSaved,
  });

  // A new document has no id for the site to merge over yet: preview starts after the first save.
  const canPreview = Boolean(c.livePreview) && !creating;
  const [previewOpen, setPreviewOpen] = useLivePreviewOpen();
  const liveStatus = useLiveStatus(Boolean(c.drafts) && !creating, doc, () =>
    docs.get(c.slug, id!, { locale, draft: false }),
  );
  const live = useLiveDocument({
    owner: creating ? null : { collection: c.slug, id: id! },
    versioned: Boolean(c.drafts),
    locale,
    doc,
    dirty: form.dirty,
    busy: form.busy,
    show: (d) => (form.forgetUnsaved(), edited.showSaved(d)),
  });
  const defaultMode: SaveMode = c.drafts ? 'draft' : 'save';
  useSaveShortcut(() => void save(defaultMode));

  if (edited.loadError) {
    return (
      <section>
        <Breadcrumb c={c} />
        <h1 tabIndex={-1}>{t('edit.notAvailable')}</h1>
        <ErrorBox error={edited.loadError} />
      </section>
    );
  }
  if (creating && isMedia) return <MediaCreate c={c} />;
  if (!creating && !doc) return <Spinner />;

  const draftStatus = typeof doc?.status === 'string' ? doc.status : null;
  const own = isUsers && String(id) === String(user.id);
  const copyTargets = !creating && locale && doc ? localesToCopyTo(config, fields) : null;

  return (
    <section class="edit">
      <header class="edit-head">
        <div class="edit-title">
          <Breadcrumb c={c} />
          <h1 tabIndex={-1}>
            {creating ? t('edit.new', labelParams(singularLabel(c))) : <DocumentTitle c={c} doc={doc!} form={form} />}
            {own && <span class="badge">{t('edit.you')}</span>}
          </h1>
        </div>
        <EditActions
          c={c}
          id={id}
          doc={doc}
          fields={fields}
          form={form}
          autosave={autosave}
          preview={canPreview ? { open: previewOpen, onToggle: setPreviewOpen } : null}
          live={liveStatus}
          draft={draftStatus}
          readOnly={someoneElse}
          save={(m) => void save(m)}
          onChanged={edited.showSaved}
          onCopyToLocale={copyTargets && (() => setCopying(true))}
        />
      </header>

      {copying && copyTargets && (
        <LazyView
          load={() => import('./copy-to-locale.tsx')}
          props={{
            c,
            id: String(id),
            doc: doc!,
            from: locale!,
            locales: copyTargets,
            onClose: () => setCopying(false),
            onCopied: (to: string) => (setCopying(false), setLocale(to)),
          }}
        />
      )}
      {note && <CreatedNoteAlert note={note} />}

      <div class={`edit-grid${canPreview && previewOpen ? ' with-preview' : ''}`}>
        <form
          class="edit-main"
          id="doc-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save(defaultMode);
          }}
        >
          <LockBanner lock={lock} onTakenOver={edited.reload} />
          <RecoveredBanner form={form} />
          <LiveChangeNotice {...live} />
          <ErrorSummary form={form} fields={fields} />
          {c.drafts && !creating && <MissingBeforePublish form={form} fields={fields} visible={visible} />}
          {isMedia && doc && <MediaPreview doc={doc} onChange={edited.show} />}
          <FormContext.Provider value={fieldContext}>
            <div class="fields">
              <FieldList
                fields={fields}
                store={form.store}
                writer={form.writer}
                position={creating ? undefined : 'main'}
              />
              {isUsers && (
                <PasswordSection
                  state={password}
                  onChange={setPassword}
                  creating={creating}
                  own={own}
                  invite={isAdmin(user)}
                />
              )}
            </div>
          </FormContext.Provider>
          <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
        </form>
        {!creating && doc && (
          <DocumentAside
            c={c}
            id={id}
            doc={doc}
            fields={fields}
            form={form}
            context={fieldContext}
            draft={draftStatus}
            live={liveStatus}
            saves={edited.saves}
            own={own}
            onRestored={edited.showSaved}
          />
        )}
        {canPreview && previewOpen && (
          <LivePreviewSlot owner={{ collection: c.slug, id: id! }} store={form.store} locale={locale} />
        )}
      </div>
    </section>
  );
}

/** The document's title as typed (its `useAsTitle` field), or as stored while that is empty. */
function DocumentTitle(props: { c: CollectionConfig; doc: Doc; form: DocumentFormState }) {
  const { c } = props;
  const typed = useFormSelect(props.form.store, (values) => docLabel(c, values));
  return <>{typed || docLabel(c, props.doc)}</>;
}

/** The locales "Copy to locale" offers: only with more than one locale, and fields that are localized. */
function localesToCopyTo(config: AdminConfig, fields: Field[]): string[] | null {
  const locales = config.localization?.locales;
  return locales && locales.length > 1 && dataFields(fields).some((f) => f.localized) ? locales : null;
}
