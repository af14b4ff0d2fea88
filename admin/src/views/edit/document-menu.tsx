/**
 * A stored document's More actions: Duplicate (a new document's form, filled with these values), Copy to
 * locale (the dialog itself is the edit view's), and Delete (into the trash where the collection keeps one).
 */
import { docs, type CollectionConfig, type Doc, type Field } from '../../api.ts';
import { mayManage, useApp } from '../../app-context.ts';
import type { DocumentFormState } from '../../form/document-form.tsx';
import { forgetChoices } from '../../form/choice-labels.ts';
import { changedFields, emptyDoc } from '../../form/values.ts';
import { docLabel, labelParams, singularLabel } from '../../format.ts';
import { MoreActions } from '../../popup-menu.tsx';
import { navigate } from '../../router.tsx';
import { confirmDialog } from '../../ui/confirm-dialog.tsx';
import { Icon } from '../../ui.tsx';
import { toast } from '../../ui/toasts.tsx';
import { trashChoice } from './trash-choice.tsx';
import { t } from '../../i18n/i18n.ts';

export function DocumentMenu(props: {
  c: CollectionConfig;
  id: string;
  doc: Doc | null;
  fields: Field[];
  form: DocumentFormState;
  /** Someone else holds the lock: no action here may change or copy what they are editing. */
  readOnly: boolean;
  /** Offers Copy to locale when given. */
  onCopyToLocale: (() => void) | null;
}) {
  const { c, form } = props;
  const { user, handOver } = useApp();
  const path = `/collections/${c.slug}`;
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

  const duplicate = async () => {
    const values = changedFields(props.fields, form.values, emptyDoc(props.fields));
    const titleKey = c.admin?.useAsTitle;
    if (titleKey && typeof values[titleKey] === 'string')
      values[titleKey] = t('edit.copyTitle', { title: String(values[titleKey]) });
    handOver.give('prefill', `${path}/create`, values);
    await navigate(`${path}/create`);
  };

  return (
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
      {mayManage(c, user) && (
        <button type="button" class="ghost danger-text" onClick={() => void remove()} disabled={off}>
          <Icon name="trash" /> {t('edit.delete')}
        </button>
      )}
    </MoreActions>
  );
}
