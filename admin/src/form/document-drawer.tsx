/**
 * A related document's form in a drawer over the form that links to it (as Payload's document drawer):
 * "Edit" on a chosen document, or "Create new" in a relationship picker. The same form parts as the edit
 * page (document-form.tsx, the field list, conditions, error summary); saving writes the related document
 * and hands it back, so the field can rename its chip or choose the new document while the form
 * underneath keeps its unsaved edits. A chunk of its own, fetched when first opened (lazy.tsx).
 */
import { createPortal } from 'preact';
import { useMemo } from 'preact/hooks';
import { docs, type CollectionConfig, type Doc } from '../api.ts';
import { useApp } from '../app-context.ts';
import { docLabel, singularLabel } from '../format.ts';
import { useLoad } from '../use-load.ts';
import { t } from '../i18n/i18n.ts';
import { confirmDialog } from '../ui/confirm-dialog.tsx';
import { ErrorBox } from '../ui/error-box.tsx';
import { Modal } from '../ui/modal.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { useConditions } from './conditions.ts';
import { ErrorSummary, useDocumentForm, useFieldContext } from './document-form.tsx';
import { FieldList } from './fields.tsx';
import { FormContext, pathWriter } from './form-context.ts';
import { forgetChoices } from './choice-labels.ts';
import { changedFields, emptyDoc } from './values.ts';

export interface DocumentDrawerProps {
  collection: CollectionConfig;
  /** The document to edit, or null to create one. */
  id: string | null;
  onClose: () => void;
  onSaved: (doc: Doc) => void;
}

type Mode = 'save' | 'draft' | 'publish';

/** Keys of a path-keyed map under the drawer's own prefix, so its inputs' ids never meet the page's. */
const prefixed = <T,>(map: Record<string, T> | undefined, prefix: string) =>
  map ? Object.fromEntries(Object.entries(map).map(([k, v]) => [`${prefix}.${k}`, v])) : map;

export default function DocumentDrawer(props: DocumentDrawerProps) {
  const c = props.collection;
  const { locale } = useApp();
  const creating = props.id === null;
  // As on the edit page, a file's facts are the preview's, not inputs.
  const fields = useMemo(() => (c.builtIn === 'media' ? c.fields.filter((f) => !f.admin?.readOnly) : c.fields), [c]);
  const form = useDocumentForm(fields, false, undefined, undefined, false);
  const visible = useConditions({ collection: c.slug }, fields, form.store);
  const owner = useMemo(() => (creating ? undefined : { collection: c.slug, id: props.id! }), [c.slug, props.id]);
  const base = useFieldContext(form, { visible, owner, readOnly: false });
  const prefix = `drawer-${c.slug}`;
  const writer = useMemo(() => pathWriter(form.setValues, prefix), [prefix]);
  const context = useMemo(
    () => ({ ...base, errors: prefixed(base.errors, prefix)!, visible: prefixed(base.visible, prefix) }),
    [base, prefix],
  );

  const read = useLoad(
    () => (creating ? void form.reset(emptyDoc(fields)) : docs.get(c.slug, props.id!, { locale, draft: c.drafts })),
    [c.slug, props.id, locale],
    { onLoad: (d) => form.reset(d) },
  );
  const loaded = creating || read.data !== null;
  const loadError = read.error;

  const save = async (mode: Mode) => {
    if (form.busy) return;
    const data = changedFields(fields, form.values, form.initial);
    if (mode === 'publish') data.status = 'published';
    form.setBusy(true);
    form.clearErrors();
    try {
      const params = { locale, draft: mode === 'draft' };
      const r = creating ? await docs.create(c.slug, data, params) : await docs.update(c.slug, props.id!, data, params);
      forgetChoices(c.slug);
      form.setBusy(false);
      props.onSaved(r.doc);
    } catch (e) {
      form.setBusy(false);
      form.showError(e);
    }
  };

  const close = async () => {
    if (
      form.dirty &&
      !(await confirmDialog({
        title: t('drawer.discardTitle'),
        message: t('drawer.discardMessage'),
        confirm: t('drawer.discard'),
        cancel: t('drawer.keepEditing'),
        danger: true,
      }))
    )
      return;
    props.onClose();
  };

  const name = singularLabel(c);
  const title = creating
    ? t('drawer.newTitle', { label: name, labelLower: name.toLowerCase() })
    : t('drawer.editTitle', { label: docLabel(c, form.initial) || name });
  const submit = (mode: Mode) => (e?: Event) => {
    e?.preventDefault();
    void save(mode);
  };

  // On the body, not inside the page's form: the drawer's own form and its submit stay apart from the page's.
  return createPortal(
    <Modal
      title={title}
      drawer
      onClose={() => void close()}
      footer={
        <>
          <button type="button" class="ghost" onClick={() => void close()}>
            {t('drawer.cancel')}
          </button>
          {c.drafts && (
            <button type="button" disabled={form.busy || !loaded} onClick={submit('draft')}>
              {t('drawer.saveDraft')}
            </button>
          )}
          <button
            type="button"
            class="primary"
            disabled={form.busy || !loaded}
            onClick={submit(c.drafts ? 'publish' : 'save')}
          >
            {form.busy
              ? t('drawer.saving')
              : c.drafts
                ? t('drawer.publish')
                : creating
                  ? t('drawer.create')
                  : t('drawer.save')}
          </button>
        </>
      }
    >
      {loadError ? (
        <ErrorBox error={loadError} />
      ) : !loaded ? (
        <Spinner />
      ) : (
        <form noValidate onSubmit={submit(c.drafts ? 'draft' : 'save')}>
          <ErrorSummary form={form} fields={fields} prefix={prefix} />
          <FormContext.Provider value={context}>
            <div class="fields">
              <FieldList fields={fields} store={form.store} path={prefix} writer={writer} />
            </div>
          </FormContext.Provider>
          <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
        </form>
      )}
    </Modal>,
    document.body,
  );
}
