/** The content locale switch of the list and edit views, shown only where some field is localized. */
import type { Field } from '../api.ts';
import { useApp } from '../app-context.ts';
import { confirmDialog } from '../ui/confirm-dialog.tsx';
import { Icon } from '../ui.tsx';
import { t } from '../i18n/i18n.ts';

/** Whether any field (at any depth) is localized, i.e. whether a locale switcher means anything here. */
export function hasLocalizedFields(fields: Field[]): boolean {
  return fields.some(
    (f) =>
      f.localized ||
      hasLocalizedFields(f.fields ?? []) ||
      (f.tabs ?? []).some((t) => hasLocalizedFields(t.fields)) ||
      (f.blocks ?? []).some((b) => hasLocalizedFields(b.fields)),
  );
}

export function LocaleSwitcher(props: { dirty: boolean; fields: Field[] }) {
  const { config, locale, setLocale } = useApp();
  if (!config.localization || !locale || !hasLocalizedFields(props.fields)) return null;
  return (
    <label class="locale-switch" title={t('locale.content')}>
      <Icon name="globe" />
      <span class="visually-hidden">{t('locale.locale')}</span>
      <select
        value={locale}
        onChange={async (e) => {
          const next = e.currentTarget.value;
          e.currentTarget.value = locale;
          if (
            props.dirty &&
            !(await confirmDialog({
              title: t('locale.switchTitle'),
              message: t('locale.switchMessage'),
              confirm: t('locale.switch'),
              danger: true,
            }))
          )
            return;
          setLocale(next);
        }}
      >
        {config.localization.locales.map((l) => (
          <option value={l} key={l}>
            {l.toUpperCase()}
            {l === config.localization!.defaultLocale ? ' (default)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
