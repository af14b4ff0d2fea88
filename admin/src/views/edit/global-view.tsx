/** Edit a global (a single document): same form as collections, saved with `POST /globals/:slug`. */
import { useMemo, useState } from 'preact/hooks';
import { ApiError, globals, type Doc, type GlobalConfig } from '../../api.ts';
import { useApp } from '../../app-context.ts';
import {
  ErrorSummary,
  RecoveredBanner,
  useDocumentForm,
  useFieldContext,
  useSaveShortcut,
} from '../../form/document-form.tsx';
import { LocaleSwitcher } from '../../form/locale-switcher.tsx';
import { AutosaveStatus, useAutosave } from '../../form/autosave.tsx';
import { useConditions } from '../../form/conditions.ts';
import { useDocumentLock } from '../../form/document-lock.ts';
import { LockBanner } from './lock-banner.tsx';
import { SidebarFields } from './sidebar-fields.tsx';
import { unsavedKey } from '../../form/unsaved-store.ts';
import { FieldList } from '../../form/fields.tsx';
import { FormContext } from '../../form/form-context.ts';
import { changedFields } from '../../form/values.ts';
import { formatDate, globalLabel } from '../../format.ts';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { toast } from '../../ui/toasts.tsx';
import { VersionsPanel } from './versions-panel.tsx';
import { SchedulePanel } from './schedule-panel.tsx';
import { DraftButtons, useLiveStatus, type SaveMode } from './draft-controls.tsx';
import { StatusBadges } from './status-badges.tsx';
import { LivePreviewButtons, LivePreviewSlot, useLivePreviewOpen } from './live-preview-slot.tsx';
import { t } from '../../i18n/i18n.ts';
import { MoreActions } from '../../popup-menu.tsx';
import { useAddToRelease } from '../releases/add-to-release-action.tsx';
import { useLoad } from '../../use-load.ts';

export function GlobalView(props: { global: GlobalConfig }) {
  const g = props.global;
  const { locale, user } = useApp();
  const form = useDocumentForm(g.fields, false, undefined, unsavedKey(user.id, `/globals/${g.slug}`, locale));
  const loaded = useLoad(
    () => {
      form.clearErrors();
      return globals.get(g.slug, { locale, draft: g.drafts });
    },
    [g.slug, locale],
    { fresh: true, onLoad: (d) => form.reset(d) },
  );
  const { data: doc, error: loadError, setData: setDoc } = loaded;
  const [saves, setSaves] = useState(0);
  const owner = useMemo(() => ({ global: g.slug }), [g.slug]);
  const lock = useDocumentLock(owner, user.id);
  // Someone else holds the lock, or took it from this editor: read-only either way.
  const someoneElse = lock.state.status === 'other' || lock.state.status === 'lost';
  const visible = useConditions(owner, g.fields, form.store);
  const fieldContext = useFieldContext(form, { visible, readOnly: someoneElse });
  const autosave = useAutosave({
    enabled: Boolean(g.drafts && g.autosave) && doc !== null && lock.state.status === 'mine',
    interval: g.autosave?.interval ?? 800,
    fields: g.fields,
    form,
    save: (data) =>
      globals.save(g.slug, data, { locale, draft: true, autosave: true, lockToken: lock.token }).then((r) => r.doc),
  });

  const save = async (mode: SaveMode) => {
    if (form.busy) return;
    if (someoneElse) return toast(t('global.lockedSave'), 'error');
    if (Object.keys(form.clientErrors).length)
      return form.showError(new ApiError(400, Object.values(form.clientErrors)[0]!));
    const data: Doc = changedFields(g.fields, form.values, form.initial);
    if (mode === 'publish') data.status = 'published';
    // An unchanged "Save draft" would only add an identical version.
    if (Object.keys(data).length === 0 && mode !== 'publish') return toast(t('edit.nothingToSave'), 'info');
    form.setBusy(true);
    form.clearErrors();
    try {
      const r = await globals.save(g.slug, data, { locale, draft: mode === 'draft', lockToken: lock.token });
      form.forgetUnsaved();
      showDoc(r.doc);
      toast(mode === 'publish' ? t('edit.published') : mode === 'draft' ? t('edit.draftSaved') : t('edit.saved'));
    } catch (e) {
      form.showError(e);
    } finally {
      form.setBusy(false);
    }
  };
  const showDoc = (d: Doc) => {
    setDoc(d);
    form.reset(d);
    setSaves((n) => n + 1);
  };
  const [previewOpen, setPreviewOpen] = useLivePreviewOpen();
  const showPreview = Boolean(g.livePreview) && previewOpen;
  const liveStatus = useLiveStatus(Boolean(g.drafts), doc, () => globals.get(g.slug, { locale }));
  useSaveShortcut(() => void save(g.drafts ? 'draft' : 'save'));
  const release = useAddToRelease(g.drafts && doc?.updatedAt ? { global: g.slug } : null);

  if (loadError)
    return (
      <section>
        <h1 tabIndex={-1}>{globalLabel(g)}</h1>
        <ErrorBox error={loadError} />
      </section>
    );
  if (!doc) return <Spinner />;
  const draftStatus = typeof doc.status === 'string' ? doc.status : null;

  return (
    <section class="edit">
      <header class="edit-head">
        <div class="edit-title">
          <div class="breadcrumb muted">{t('dashboard.global')}</div>
          <h1 tabIndex={-1}>{globalLabel(g)}</h1>
        </div>
        <div class="actions">
          <LocaleSwitcher dirty={form.dirty} fields={g.fields} />
          {g.autosave && <AutosaveStatus state={autosave} />}
          {form.dirty && !g.autosave && (
            <span class="unsaved" role="status">
              {t('edit.unsaved')}
            </span>
          )}
          {g.livePreview && (
            <LivePreviewButtons
              owner={{ global: g.slug }}
              locale={locale}
              open={previewOpen}
              onToggle={setPreviewOpen}
            />
          )}
          {release.item && <MoreActions label={t('edit.moreActions')}>{release.item}</MoreActions>}
          {release.dialog}
          {g.drafts ? (
            <DraftButtons
              owner={doc.updatedAt ? { global: g.slug } : null}
              live={liveStatus}
              draft={draftStatus}
              busy={form.busy}
              dirty={form.dirty}
              readOnly={someoneElse}
              save={(m) => void save(m)}
              onChanged={showDoc}
            />
          ) : (
            <button
              type="button"
              class="primary"
              onClick={() => void save('save')}
              disabled={form.busy || someoneElse || !form.dirty}
            >
              {form.busy ? t('edit.saving') : t('edit.save')}
            </button>
          )}
        </div>
      </header>
      <div class={`edit-grid${showPreview ? ' with-preview' : ''}`}>
        <form
          class="edit-main"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void save(g.drafts ? 'draft' : 'save');
          }}
        >
          <LockBanner lock={lock} onTakenOver={loaded.reload} />
          <RecoveredBanner form={form} />
          <ErrorSummary form={form} fields={g.fields} />
          <FormContext.Provider value={fieldContext}>
            <div class="fields">
              <FieldList fields={g.fields} store={form.store} writer={form.writer} position="main" />
            </div>
          </FormContext.Provider>
          <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
        </form>
        <aside class="edit-aside">
          <SidebarFields fields={g.fields} form={form} context={fieldContext} />
          <section class="panel" aria-label={t('form.details')}>
            <dl class="facts">
              {g.drafts && (
                <div>
                  <dt>{t('common.status')}</dt>
                  <dd>
                    <StatusBadges draft={draftStatus} live={liveStatus} />
                  </dd>
                </div>
              )}
              <div>
                <dt>{t('common.updated')}</dt>
                <dd>{doc.updatedAt ? formatDate(doc.updatedAt) : t('global.neverSaved')}</dd>
              </div>
            </dl>
          </section>
          {g.drafts && <SchedulePanel owner={{ global: g.slug }} reloadKey={saves} readOnly={someoneElse} />}
          {g.drafts && (
            <VersionsPanel
              owner={{ global: g.slug }}
              fields={g.fields}
              reloadKey={saves}
              dirty={form.dirty}
              current={form.initial}
              saveDraft={(data) => globals.save(g.slug, data, { locale, draft: true }).then((r) => r.doc)}
              onRestored={showDoc}
              readOnly={someoneElse}
            />
          )}
        </aside>
        {showPreview && <LivePreviewSlot owner={{ global: g.slug }} store={form.store} locale={locale} />}
      </div>
    </section>
  );
}
