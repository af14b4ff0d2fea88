/** The second-factor field of the login and reset forms, shown once the server names `code`. */
import { useEffect, useState } from 'preact/hooks';
import type { ApiError } from '../../api.ts';
import { t } from '../../i18n/i18n.ts';

/** True from the first answer that asks for a two-factor code. */
export function useTwoFactorPrompt(error: ApiError | null): boolean {
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (error?.errors.some((e) => e.field === 'code')) setAsked(true);
  }, [error]);
  return asked;
}

export function TwoFactorCodeField(props: { value: string; onInput: (value: string) => void }) {
  return (
    <label>
      {t('auth.twoFactorCode')}
      <input
        type="text"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        required
        autoFocus
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      <span class="field-description">{t('auth.twoFactorCodeHint')}</span>
    </label>
  );
}
