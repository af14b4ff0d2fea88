/**
 * The admin's language for this browser (docs/admin.md, "Languages"): "Browser default" follows
 * `navigator.languages`; a choice is kept in `localStorage` and applied at once.
 */
import { useState } from 'preact/hooks';
import { message } from '../../format.ts';
import { LANGUAGES, language, loadLanguage, preferredLanguage, saveLanguage, t } from '../../i18n/i18n.ts';
import { ErrorBox } from '../../ui/error-box.tsx';

export function LanguagePicker() {
  const [chosen, setChosen] = useState(() => (localStorage.getItem('cms-language') ? language() : ''));
  const [error, setError] = useState<string | null>(null);
  const pick = async (code: string) => {
    setError(null);
    saveLanguage(code || null);
    setChosen(code);
    try {
      await loadLanguage(code || preferredLanguage());
    } catch (e) {
      setError(message(e));
    }
  };
  return (
    <section class="panel language-picker">
      <h2>{t('account.language')}</h2>
      <label class="field">
        <span>{t('account.languageLabel')}</span>
        <select value={chosen} onChange={(e) => void pick(e.currentTarget.value)}>
          <option value="">{t('account.languageBrowser')}</option>
          {Object.entries(LANGUAGES).map(([code, name]) => (
            <option value={code} key={code} lang={code}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <p class="muted small">{t('account.languageHint')}</p>
      <ErrorBox error={error} />
    </section>
  );
}
