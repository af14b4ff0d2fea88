/** Logged-out screens for a forgotten password and for the link in a reset or invitation mail. */
import { useState } from 'preact/hooks';
import { auth, type LoginResult } from '../../api.ts';
import { Link } from '../../router.tsx';
import { ErrorBox } from '../../ui/error-box.tsx';
import { AuthCard, useSubmit } from './auth-screens.tsx';
import { TwoFactorCodeField, useTwoFactorPrompt } from './two-factor-field.tsx';
import { t } from '../../i18n/i18n.ts';

export function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  // On success the form gives way to the server's answer, so busy needs no reset.
  const { busy, error, submit } = useSubmit(
    () => auth.forgotPassword(email),
    (r) => setSent(r.message),
  );
  return (
    <AuthCard title={t('auth.forgotTitle')} intro={t('auth.forgotIntro')}>
      {sent ? (
        <p role="status">{sent}</p>
      ) : (
        <form onSubmit={submit} class="form">
          <ErrorBox error={error?.message} />
          <label>
            {t('auth.email')}
            <input
              type="email"
              name="email"
              autoComplete="username"
              required
              autoFocus
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </label>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? t('auth.sending') : t('auth.sendLink')}
          </button>
        </form>
      )}
      <Link to="/">{t('auth.backToLogin')}</Link>
    </AuthCard>
  );
}

export function ResetPasswordForm(props: { token: string; onDone: (r: LoginResult) => void }) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const { busy, error, submit } = useSubmit(() => auth.resetPassword(props.token, password, code), props.onDone);
  const needsCode = useTwoFactorPrompt(error);
  const fieldError = (f: string) => error?.errors.find((x) => x.field === f)?.message;
  const general = error && !fieldError('password') ? error.message : null;
  return (
    <AuthCard title={t('auth.chooseTitle')}>
      <form onSubmit={submit} class="form">
        <ErrorBox error={general} />
        <label>
          {t('auth.newPassword')}
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={8}
            autoFocus
            value={password}
            aria-invalid={fieldError('password') ? 'true' : undefined}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
          <span class="field-description">{t('auth.minLength')}</span>
          {fieldError('password') && <span class="field-error">{fieldError('password')}</span>}
        </label>
        {needsCode && <TwoFactorCodeField value={code} onInput={setCode} />}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('auth.saving') : t('auth.setAndLogin')}
        </button>
      </form>
      {fieldError('token') && <Link to="/forgot-password">{t('auth.newLink')}</Link>}
    </AuthCard>
  );
}
