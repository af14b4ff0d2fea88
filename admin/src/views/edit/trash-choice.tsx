/**
 * The delete confirmation of a collection with a trash (docs/trash.md): the document goes to the trash,
 * unless "Delete for good" is ticked, which sends the DELETE with `trash=true`.
 */
import { api, type CollectionConfig } from '../../api.ts';
import { t } from '../../i18n/i18n.ts';

export function trashChoice(c: CollectionConfig, title: string) {
  if (!c.trash) return null;
  const choice = { forGood: false };
  const path = (id: string | number) => `/${encodeURIComponent(c.slug)}/${encodeURIComponent(String(id))}`;
  return {
    dialog: {
      title: t('trash.moveTitle'),
      message: (
        <div>
          <p>{t('trash.moveMessage', { title })}</p>
          <label class="check">
            <input
              type="checkbox"
              data-testid="delete-for-good"
              onChange={(e) => (choice.forGood = (e.currentTarget as HTMLInputElement).checked)}
            />{' '}
            {t('trash.forGood')}
          </label>
        </div>
      ),
      confirm: t('edit.delete'),
      danger: true,
    },
    remove: (id: string | number) => api('DELETE', `${path(id)}${choice.forGood ? '?trash=true' : ''}`),
  };
}
