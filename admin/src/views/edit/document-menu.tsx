/**
 * A stored document's More actions: Duplicate (the server copies the stored document; its page opens), Copy to
 * locale (the dialog itself is the edit view's), Add to release (drafts collections, where releases are on),
 * and Delete (into the trash where the collection keeps one).
 */
import { docs, type CollectionConfig, type Doc } from '../../api.ts';
import { mayManage, useApp } from '../../app-context.ts';
import type { DocumentFormState } from '../../form/document-form.tsx';
import { forgetChoices } from '../../form/choice-labels.ts';
import { docLabel, labelParams, singularLabel } from '../../format.ts';
import { MoreActions } from '../../popup-menu.tsx';
import { navigate } from '../../router.tsx';
import { confirmDialog } from '../../ui/confirm-dialog.tsx';
import { Icon } from '../../ui.tsx';
import { toast } from '../../ui/toasts.tsx';
import { trashChoice } from './trash-choice.tsx';
import { useAddToRelease } from '../releases/add-to-release-action.tsx';
import { t } from '../../i18n/i18n.ts';

export function DocumentMenu(props: {
  c: CollectionConfig;
  id: string;
  doc: Doc | null;
  form: DocumentFormState;
  /** Someone else holds the lock: no action here may change or copy what they are editing. */
  readOnly: boolean;
  /** Offers Copy to locale when given. */
  onCopyToLocale: (() => void) | null;
}) {
  const { c, form } = props;
  const { user, locale, handOver } = useApp();
  const path = `/collections/${c.slug}`;
  const release = useAddToRelease(c.drafts ? { collection: c.slug, id: props.id } : null);
  if (c.builtIn && !mayManage(c, user)) return null;
  const off = form.busy || props.readOnly;

  const remove = async () => {
    const title = docLabel(c, props.doc ?? form.values);
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
      await (trash ? trash.remove(props.id) : docs.remove(c.slug, props.id));
      forgetChoices(c.slug);
      form.forgetUnsaved();
      toast(t('edit.deleted', { title }));
      await navigate(path, { force: true });
    } catch (e) {
      form.showError(e);
    }
  };

  // The server copies the stored document (REST's duplicate); the copy's title says it is one.
  const duplicate = async () => {
    const titleKey = c.admin?.useAsTitle;
    const title = titleKey ? props.doc?.[titleKey] : undefined;
    const data = titleKey && typeof title === 'string' ? { [titleKey]: t('edit.copyTitle', { title }) } : {};
    try {
      const { doc } = await docs.duplicate(c.slug, props.id, data, { locale });
      forgetChoices(c.slug);
      handOver.give('note', `${path}/${doc.id}`, { text: t('edit.createdNote', labelParams(singularLabel(c))) });
      await navigate(`${path}/${doc.id}`);
    } catch (e) {
      form.showError(e);
    }
  };

  return (
    <>
      <MoreActions label={t('edit.moreActions')}>
        {!c.builtIn && (
          <button type="button" class="ghost" onClick={() => void duplicate()} disabled={off}>
            <Icon name="copy" /> {t('edit.duplicate')}
          </button>
        )}
        {props.onCopyToLocale && (
          <button type="button" class="ghost" onClick={props.onCopyToLocale} disabled={off}>
            <Icon name="copy" /> {t('edit.copyToLocale')}
          </button>
        )}
        {release.item}
        {mayManage(c, user) && (
          <button type="button" class="ghost danger-text" onClick={() => void remove()} disabled={off}>
            <Icon name="trash" /> {t('edit.delete')}
          </button>
        )}
      </MoreActions>
      {release.dialog}
    </>
  );
}
