/** Create or edit one document of a collection: the generated form, drafts/publish, schedule, versions, duplicate, delete. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, docs, type CollectionConfig, type Doc, type Field } from '../api.ts';
import { isAdmin, mayManage, useApp } from '../app-context.ts';
import { forgetChoices } from '../form/relationship-field.tsx';
import {
  ErrorSummary,
  RecoveredBanner,
  useDocumentForm,
  useFieldContext,
  useSaveShortcut,
} from '../form/document-form.tsx';
import { LocaleSwitcher } from '../form/locale-switcher.tsx';
import { AutosaveStatus, useAutosave } from '../form/autosave.tsx';
import { useConditions } from '../form/conditions.ts';
import { useDocumentLock } from '../form/document-lock.ts';
import { LockBanner } from './lock-banner.tsx';
import { unsavedKey } from '../form/unsaved-store.ts';
import { FieldList } from '../form/fields.tsx';
import { FormContext, type FormState } from '../form/form-context.ts';
import { changedFields, dataFields, emptyDoc } from '../form/values.ts';
import { docLabel, formatDate, labelParams, message, pluralLabel, singularLabel } from '../format.ts';
import { Uploader } from '../media/uploader.tsx';
import { Link, navigate } from '../router.tsx';
import { confirmDialog, ErrorBox, Icon, SecretRow, Spinner, toast } from '../ui.tsx';
import { MediaPreview } from './media-preview.tsx';
import { LazyView } from '../lazy.tsx';
import { trashChoice } from './trash-choice.tsx';
import { MoreActions } from '../popup-menu.tsx';
import { PasswordSection, passwordProblem, type PasswordState } from './password-section.tsx';
import { VersionsPanel } from './versions-panel.tsx';
import { UserAccountPanel } from './user-account-panel.tsx';
import { LanguagePicker } from './language-picker.tsx';
import { SchedulePanel } from './schedule-panel.tsx';
import { DraftButtons, StatusBadges, useLiveStatus, type SaveMode } from './draft-controls.tsx';
import { LivePreviewButtons, LivePreviewSlot, useLivePreviewOpen } from './live-preview-slot.tsx';
import { LiveChangeNotice, useLiveDocument } from './live-document.tsx';
import { t } from '../i18n/i18n.ts';

export function EditView(props: { collection: CollectionConfig; id: string | null }) {
  const c = props.collection;
  const { user, locale, setUser, setLocale, config, handOver } = useApp();
  const [copying, setCopying] = useState(false);
  const creating = props.id === null;
  const isUsers = c.builtIn === 'users';
  const isMedia = c.builtIn === 'media';
  const path = `/collections/${c.slug}`;
  // Media's file facts are shown by the preview, not as disabled inputs.
  const fields = useMemo(() => (isMedia ? c.fields.filter((f) => !f.admin?.readOnly) : c.fields), [c]);
  const locked = useMemo(() => (isUsers && !isAdmin(user) ? new Set(['role', 'active']) : undefined), [isUsers, user]);
  const [password, setPassword] = useState<PasswordState>({ open: creating, value: '', confirm: '' });
  const form = useDocumentForm(
    fields,
    password.value !== '',
    locked,
    unsavedKey(user.id, `${path}/${props.id ?? 'create'}`, locale),
  );
  const [doc, setDoc] = useState<Doc | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saves, setSaves] = useState(0);
  const [reloads, setReloads] = useState(0);
  const owner = useMemo(() => (creating ? undefined : { collection: c.slug, id: props.id! }), [c.slug, props.id]);
  const lock = useDocumentLock(owner ?? null, user.id);
  const someoneElse = lock.state.status === 'other';
  const visible = useConditions({ collection: c.slug }, fields, form.values);
  const fieldContext = useFieldContext(form, { visible, owner, readOnly: someoneElse });
  const autosave = useAutosave({
    enabled:
      Boolean(c.drafts && c.autosave) &&
      !creating &&
      doc !== null &&
      lock.state.status !== 'other' &&
      lock.state.status !== 'lost',
    interval: c.autosave?.interval ?? 800,
    fields,
    form,
    save: (data) =>
      docs
        .update(c.slug, props.id!, data, { locale, draft: true, autosave: true, lockToken: lock.token })
        .then((r) => r.doc),
  });
  // The one-time note carried across the redirect from /create to the new document's page.
  const [note, setNote] = useState(() => handOver.take('note', `${path}/${props.id}`));

  useEffect(() => {
    let live = true;
    setLoadError(null);
    form.clearErrors();
    if (creating) {
      setDoc(null);
      const blank = isUsers ? newUserDefaults(c, emptyDoc(fields)) : emptyDoc(fields);
      form.reset(blank);
      const copy = handOver.take('prefill', `${path}/create`);
      if (copy) form.setValues({ ...blank, ...copy });
      return;
    }
    setDoc(null);
    docs
      .get(c.slug, props.id!, { locale, draft: c.drafts })
      .then((d) => live && (setDoc(d), form.reset(d)))
      .catch(
        (e) =>
          live &&
          setLoadError(
            e instanceof ApiError && e.status === 404 ? t('edit.missing', labelParams(singularLabel(c))) : message(e),
          ),
      );
    return () => {
      live = false;
    };
  }, [c.slug, props.id, locale, reloads]);

  // A new document has no id for the site to merge over yet: preview starts after the first save.
  const canPreview = Boolean(c.livePreview) && !creating;
  const [previewOpen, setPreviewOpen] = useLivePreviewOpen();

  const liveStatus = useLiveStatus(Boolean(c.drafts) && !creating, doc, () =>
    docs.get(c.slug, props.id!, { locale, draft: false }),
  );

  const save = async (mode: SaveMode) => {
    if (form.busy) return;
    if (someoneElse) return toast(t('edit.lockedSave'), 'error');
    if (Object.keys(form.clientErrors).length)
      return form.showError(new ApiError(400, Object.values(form.clientErrors)[0]!));
    const problem = isUsers ? passwordProblem(password, creating, isAdmin(user)) : null;
    if (problem) return form.showError(new ApiError(400, problem.message, [problem]));
    const data: Doc = changedFields(fields, form.values, form.initial);
    if (isUsers && password.open && password.value) data.password = password.value;
    if (mode === 'publish') data.status = 'published';
    // An unchanged "Save draft" would only add an identical version.
    if (!creating && Object.keys(data).length === 0) return toast(t('edit.nothingToSave'), 'info');
    form.setBusy(true);
    form.clearErrors();
    try {
      const params = { locale, draft: mode === 'draft', lockToken: lock.token };
      const r = creating ? await docs.create(c.slug, data, params) : await docs.update(c.slug, props.id!, data, params);
      forgetChoices(c.slug);
      form.forgetUnsaved();
      setNote(null);
      const saved = r.doc;
      const verb =
        mode === 'publish'
          ? t('edit.published')
          : mode === 'draft'
            ? t('edit.draftSaved')
            : creating
              ? t('edit.created')
              : t('edit.saved');
      if (isUsers && saved.id === user.id) setUser(saved as typeof user);
      setPassword({ open: false, value: '', confirm: '' });
      if (creating) {
        const secret = typeof saved.key === 'string' ? saved.key : undefined;
        // A user created without a password comes back with an invitation link (docs/accounts.md).
        const invite = typeof saved.inviteUrl === 'string' ? saved.inviteUrl : undefined;
        handOver.give('note', `${path}/${saved.id}`, {
          text: t('edit.createdNote', { label: singularLabel(c) }),
          secret,
          invite,
        });
        form.reset(saved);
        toast(verb);
        await navigate(`${path}/${saved.id}`, { replace: true, force: true });
        return;
      }
      setDoc(saved);
      form.reset(saved);
      setSaves((n) => n + 1);
      toast(verb);
    } catch (e) {
      form.showError(e);
    } finally {
      form.setBusy(false);
    }
  };

  const remove = async () => {
    const title = docLabel(c, doc ?? form.values);
    const trash = trashChoice(c, title);
    const ok = await confirmDialog(
      trash?.dialog ?? {
        title: t('edit.deleteTitle', labelParams(singularLabel(c))),
        message: t('edit.deleteMessage', { title }),
        confirm: t('edit.delete'),
        danger: true,
      },
    );
    if (!ok) return;
    try {
      await (trash ? trash.remove(props.id!) : docs.remove(c.slug, props.id!));
      forgetChoices(c.slug);
      form.forgetUnsaved();
      toast(t('edit.deleted', { title }));
      await navigate(path, { force: true });
    } catch (e) {
      form.showError(e);
    }
  };

  const duplicate = async () => {
    const values = changedFields(fields, form.values, emptyDoc(fields));
    const titleKey = c.admin?.useAsTitle;
    if (titleKey && typeof values[titleKey] === 'string')
      values[titleKey] = t('edit.copyTitle', { title: String(values[titleKey]) });
    handOver.give('prefill', `${path}/create`, values);
    await navigate(`${path}/create`);
  };

  const showDoc = (d: Doc) => {
    setDoc(d);
    form.reset(d);
    setSaves((n) => n + 1);
  };

  const live = useLiveDocument({
    owner: creating ? null : { collection: c.slug, id: props.id! },
    versioned: Boolean(c.drafts),
    locale,
    doc,
    dirty: form.dirty,
    busy: form.busy,
    show: (d) => (form.forgetUnsaved(), showDoc(d)),
  });

  const defaultMode: SaveMode = c.drafts ? 'draft' : 'save';
  useSaveShortcut(() => void save(defaultMode));

  if (loadError) {
    return (
      <section>
        <Breadcrumb c={c} />
        <h1 tabIndex={-1}>{t('edit.notAvailable')}</h1>
        <ErrorBox error={loadError} />
      </section>
    );
  }
  if (creating && isMedia) return <MediaCreate c={c} />;
  if (!creating && !doc) return <Spinner />;

  const title = creating ? t('edit.new', labelParams(singularLabel(c))) : docLabel(c, form.values) || docLabel(c, doc);
  const draftStatus = typeof doc?.status === 'string' ? doc.status : null;
  const own = isUsers && String(props.id) === String(user.id);
  const copyTargets =
    !creating &&
    locale &&
    doc &&
    config.localization &&
    config.localization.locales.length > 1 &&
    dataFields(fields).some((f) => f.localized)
      ? config.localization.locales
      : null;

  return (
    <section class="edit">
      <header class="edit-head">
        <div class="edit-title">
          <Breadcrumb c={c} />
          <h1 tabIndex={-1}>
            {title}
            {own && <span class="badge">{t('edit.you')}</span>}
          </h1>
        </div>
        <div class="actions">
          <LocaleSwitcher dirty={form.dirty} fields={fields} />
          {c.autosave && !creating && <AutosaveStatus state={autosave} />}
          {form.dirty && !c.autosave && (
            <span class="unsaved" role="status">
              {t('edit.unsaved')}
            </span>
          )}
          {canPreview && (
            <LivePreviewButtons
              owner={{ collection: c.slug, id: props.id! }}
              locale={locale}
              open={previewOpen}
              onToggle={setPreviewOpen}
            />
          )}
          {!creating && (!c.builtIn || mayManage(c, user)) && (
            <MoreActions label={t('edit.moreActions')}>
              {!c.builtIn && (
                <button type="button" class="ghost" onClick={() => void duplicate()} disabled={form.busy}>
                  <Icon name="copy" /> {t('edit.duplicate')}
                </button>
              )}
              {copyTargets && (
                <button type="button" class="ghost" onClick={() => setCopying(true)} disabled={form.busy}>
                  <Icon name="copy" /> {t('edit.copyToLocale')}
                </button>
              )}
              {mayManage(c, user) && (
                <button type="button" class="ghost danger-text" onClick={() => void remove()} disabled={form.busy}>
                  <Icon name="trash" /> {t('edit.delete')}
                </button>
              )}
            </MoreActions>
          )}
          {c.drafts ? (
            <DraftButtons
              owner={creating ? null : { collection: c.slug, id: props.id! }}
              live={liveStatus}
              draft={draftStatus}
              busy={form.busy}
              dirty={form.dirty}
              save={(m) => void save(m)}
              onChanged={showDoc}
            />
          ) : (
            <span class="save-actions">
              <button
                type="button"
                class="primary"
                onClick={() => void save('save')}
                disabled={form.busy || (!creating && !form.dirty)}
              >
                {form.busy ? t('edit.saving') : creating ? t('edit.create') : t('edit.save')}
              </button>
            </span>
          )}
        </div>
      </header>

      {copying && copyTargets && (
        <LazyView
          load={() => import('./copy-to-locale.tsx')}
          props={{
            c,
            id: String(props.id),
            doc: doc!,
            from: locale!,
            locales: copyTargets,
            onClose: () => setCopying(false),
            onCopied: (to: string) => (setCopying(false), setLocale(to)),
          }}
        />
      )}
      {note && (
        <div class="alert ok" role="status">
          <p>{note.text}</p>
          {note.secret && (
            <>
              <p>{t('edit.copyKeyNow')}</p>
              <SecretRow text={note.secret} label={t('edit.copyKey')} id="new-secret" />
            </>
          )}
          {note.invite && (
            <>
              <p>{t('edit.inviteNote')}</p>
              <SecretRow text={note.invite} label={t('edit.copyInvite')} testId="invite-link" />
            </>
          )}
        </div>
      )}

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
          <LockBanner lock={lock} onTakenOver={() => setReloads((n) => n + 1)} />
          <RecoveredBanner form={form} />
          <LiveChangeNotice {...live} />
          <ErrorSummary form={form} fields={fields} />
          {isMedia && doc && <MediaPreview doc={doc} onChange={(d) => (setDoc(d), form.reset(d))} />}
          <FormContext.Provider value={fieldContext}>
            <div class="fields">
              <FieldList
                fields={fields}
                value={form.values}
                onChange={form.setValues}
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
          <aside class="edit-aside">
            <SidebarFields fields={fields} form={form} context={fieldContext} />
            <section class="panel" aria-label={t('edit.detailsLabel')}>
              <dl class="facts">
                <div>
                  <dt>{t('edit.id')}</dt>
                  <dd>{String(doc.id)}</dd>
                </div>
                {c.drafts && (
                  <div>
                    <dt>{t('edit.status')}</dt>
                    <dd>
                      <StatusBadges draft={draftStatus} live={liveStatus} />
                    </dd>
                  </div>
                )}
                <div>
                  <dt>{t('edit.updated')}</dt>
                  <dd>{formatDate(doc.updatedAt)}</dd>
                </div>
                <div>
                  <dt>{t('edit.createdAt')}</dt>
                  <dd>{formatDate(doc.createdAt)}</dd>
                </div>
              </dl>
            </section>
            {isUsers && own && <LanguagePicker />}
            {isUsers && !own && isAdmin(user) && <UserAccountPanel user={doc.id!} label={docLabel(c, doc)} />}
            {c.drafts && <SchedulePanel owner={{ collection: c.slug, id: props.id! }} reloadKey={saves} />}
            {c.drafts && (
              <VersionsPanel
                owner={{ collection: c.slug, id: props.id! }}
                fields={fields}
                reloadKey={saves}
                dirty={form.dirty}
                current={form.initial}
                saveDraft={(data) => docs.update(c.slug, props.id!, data, { locale, draft: true }).then((r) => r.doc)}
                onRestored={showDoc}
              />
            )}
          </aside>
        )}
        {canPreview && previewOpen && (
          <LivePreviewSlot owner={{ collection: c.slug, id: props.id! }} values={form.values} locale={locale} />
        )}
      </div>
    </section>
  );
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

/** Fields with `admin.position: 'sidebar'`, beside the document's details. */
export function SidebarFields(props: {
  fields: Field[];
  form: ReturnType<typeof useDocumentForm>;
  context: FormState;
}) {
  if (!props.fields.some((f) => f.admin?.position === 'sidebar')) return null;
  return (
    <section class="panel sidebar-fields" aria-label={t('edit.moreFields')}>
      <FormContext.Provider value={props.context}>
        <FieldList fields={props.fields} value={props.form.values} onChange={props.form.setValues} position="sidebar" />
      </FormContext.Provider>
    </section>
  );
}

function Breadcrumb(props: { c: CollectionConfig }) {
  return (
    <nav class="breadcrumb" aria-label={t('edit.breadcrumb')}>
      <Link to={`/collections/${props.c.slug}`}>{pluralLabel(props.c)}</Link>
      <Icon name="chevron" size={12} />
    </nav>
  );
}

/** Media documents are created by uploading a file. */
function MediaCreate(props: { c: CollectionConfig }) {
  return (
    <section>
      <Breadcrumb c={props.c} />
      <h1 tabIndex={-1}>{t('edit.uploadFile')}</h1>
      <Uploader multiple={false} onUploaded={(d) => void navigate(`/collections/media/${d.id}`, { replace: true })} />
    </section>
  );
}
