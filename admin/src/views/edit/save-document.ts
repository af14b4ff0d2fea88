/**
 * Saving a collection's edit form: Create, Save, Save draft or Publish. Only the changed fields are sent
 * (with a new password when one was typed). After a create the page moves to the new document and hands it
 * the note it shows once: an API key's secret and a new user's invitation link come in that answer only.
 */
import { useState } from 'preact/hooks';
import { ApiError, docs, type CollectionConfig, type Doc, type Field } from '../../api.ts';
import { isAdmin, useApp } from '../../app-context.ts';
import type { DocumentFormState } from '../../form/document-form.tsx';
import type { CreatedNote } from '../../form/prefill.ts';
import { forgetChoices } from '../../form/choice-labels.ts';
import { changedFields } from '../../form/values.ts';
import { singularLabel } from '../../format.ts';
import { navigate } from '../../router.tsx';
import { toast } from '../../ui/toasts.tsx';
import type { SaveMode } from './draft-controls.tsx';
import { docTopic, ownSave } from './own-saves.ts';
import { passwordProblem, type PasswordState } from '../account/password-section.tsx';
import { t } from '../../i18n/i18n.ts';

export interface SaveDocumentOptions {
  c: CollectionConfig;
  /** null while creating. */
  id: string | null;
  fields: Field[];
  form: DocumentFormState;
  password: PasswordState;
  setPassword: (p: PasswordState) => void;
  /** Another editor holds the lock: the form is read-only and a save is refused here. */
  someoneElse: boolean;
  lockToken: string | null;
  /** Shows the saved document in the form (an update; a create moves to the new page instead). */
  showSaved: (doc: Doc) => void;
}

export interface DocumentSave {
  save: (mode: SaveMode) => Promise<void>;
  /** The note handed over by the create that led here, until the next save. */
  note: CreatedNote | null;
}

export function useSaveDocument(o: SaveDocumentOptions): DocumentSave {
  const { c, id, form } = o;
  const { user, locale, setUser, handOver } = useApp();
  const creating = id === null;
  const isUsers = c.builtIn === 'users';
  const path = `/collections/${c.slug}`;
  // The one-time note carried across the redirect from /create to the new document's page.
  const [note, setNote] = useState(() => handOver.take('note', `${path}/${id}`));

  // Forgets what was kept for this form; a create moves to the new page, an update shows what was stored.
  const afterSave = async (saved: Doc, mode: SaveMode) => {
    forgetChoices(c.slug);
    form.forgetUnsaved();
    setNote(null);
    if (isUsers && saved.id === user.id) setUser(saved as typeof user);
    o.setPassword({ open: false, value: '', confirm: '' });
    if (creating) {
      handOver.give('note', `${path}/${saved.id}`, createdNote(c, saved));
      form.reset(saved);
      toast(savedMessage(mode, creating));
      await navigate(`${path}/${saved.id}`, { replace: true, force: true });
      return;
    }
    o.showSaved(saved);
    toast(savedMessage(mode, creating));
  };

  const save = async (mode: SaveMode) => {
    if (form.busy) return;
    if (o.someoneElse) return toast(t('edit.lockedSave'), 'error');
    if (Object.keys(form.clientErrors).length)
      return form.showError(new ApiError(400, Object.values(form.clientErrors)[0]!));
    const problem = isUsers ? passwordProblem(o.password, creating, isAdmin(user)) : null;
    if (problem) return form.showError(new ApiError(400, problem.message, [problem]));
    const data: Doc = changedFields(o.fields, form.values, form.initial);
    if (isUsers && o.password.open && o.password.value) data.password = o.password.value;
    if (mode === 'publish') data.status = 'published';
    // An unchanged "Save draft" would only add an identical version.
    if (!creating && Object.keys(data).length === 0) return toast(t('edit.nothingToSave'), 'info');
    form.setBusy(true);
    form.clearErrors();
    try {
      const params = { locale, draft: mode === 'draft', lockToken: o.lockToken };
      const saved = creating
        ? (await docs.create(c.slug, data, params)).doc
        : await ownSave(docTopic(c.slug, id), () => docs.update(c.slug, id, data, params).then((r) => r.doc));
      await afterSave(saved, mode);
    } catch (e) {
      form.showError(e);
    } finally {
      form.setBusy(false);
    }
  };

  return { save, note };
}

/** The toast after a save. */
function savedMessage(mode: SaveMode, creating: boolean): string {
  if (mode === 'publish') return t('edit.published');
  if (mode === 'draft') return t('edit.draftSaved');
  return creating ? t('edit.created') : t('edit.saved');
}

/**
 * What the new document's page says once. A user created without a password comes back with an invitation
 * link (docs/accounts.md).
 */
function createdNote(c: CollectionConfig, saved: Doc): CreatedNote {
  return {
    text: t('edit.createdNote', { label: singularLabel(c) }),
    secret: typeof saved.key === 'string' ? saved.key : undefined,
    invite: typeof saved.inviteUrl === 'string' ? saved.inviteUrl : undefined,
  };
}
