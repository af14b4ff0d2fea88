/** Logged-out screens: log in, and create the first admin while no user exists. */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError, auth, type LoginResult } from '../../api.ts';
import { message } from '../../format.ts';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Link } from '../../router.tsx';
import { TwoFactorCodeField, useTwoFactorPrompt } from './two-factor-field.tsx';
import { t } from '../../i18n/i18n.ts';

export function AuthCard(props: { title: string; intro?: string; children: ComponentChildren }) {
  return (
    <main class="auth">
      <div class="card auth-card">
        <div class="brand">
          <span class="logo" aria-hidden="true" />
          CMS
        </div>
        <h1>{props.title}</h1>
        {props.intro && <p class="muted">{props.intro}</p>}
        {props.children}
      </div>
    </main>
  );
}

/** A logged-out form's submit: busy while `run` works, its error kept (as ApiError) for the form to show. */
export function useSubmit<T>(run: () => Promise<T>, onDone: (r: T) => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(await run());
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, message(err)));
      setBusy(false);
    }
  };
  return { busy, error, submit };
}

/** `email`: who was signed in when the session ended, so only the password is left to type. */
export function LoginForm(props: { onDone: (r: LoginResult) => void; email?: string }) {
  const [email, setEmail] = useState(props.email ?? '');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [sentCode, setSentCode] = useState(false);
  const { busy, error, submit } = useSubmit(
    () => (setSentCode(code.trim() !== ''), auth.login(email, password, code)),
    props.onDone,
  );
  // The server asks for the second factor by naming `code`; from then on the form shows its field.
  const needsCode = useTwoFactorPrompt(error);
  // Being asked for the code is the next step, not a failure: only a code that was sent and refused is an error.
  const codeStep = needsCode && !sentCode && error?.errors.some((e) => e.field === 'code');
  // The server's 429 message already says to wait; adding our own said it twice.
  const text = codeStep ? null : error?.message;
  return (
    <AuthCard title={needsCode ? t('auth.twoFactorTitle') : t('auth.login')}>
      <form onSubmit={submit} class="form">
        {codeStep && (
          <p class="alert info" role="status">
            {t('auth.passwordAccepted')}
          </p>
        )}
        <ErrorBox error={text} />
        <label hidden={needsCode}>
          {t('auth.email')}
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            autoFocus={!props.email}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label hidden={needsCode}>
          {t('auth.password')}
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            autoFocus={Boolean(props.email)}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        {needsCode && <TwoFactorCodeField value={code} onInput={setCode} />}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('auth.loggingIn') : t('auth.login')}
        </button>
        <Link to="/forgot-password">{t('auth.forgot')}</Link>
      </form>
    </AuthCard>
  );
}

export function FirstRegisterForm(props: { onDone: (r: LoginResult) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  /** Set when a submit found the two passwords different; nothing is sent then. */
  const [mismatch, setMismatch] = useState(false);
  const { busy, error, submit } = useSubmit(() => auth.firstRegister(email, password, name), props.onDone);
  const send = (e: Event) => {
    if (password !== confirm) {
      e.preventDefault();
      setMismatch(true);
      return;
    }
    void submit(e);
  };
  const fieldError = (f: string) => error?.errors.find((x) => x.field === f)?.message;
  const general = error && !error.errors.some((x) => x.field) ? error.message : null;
  return (
    <AuthCard title={t('auth.firstTitle')} intro={t('auth.firstIntro')}>
      <form onSubmit={send} class="form">
        <ErrorBox error={general} />
        <label>
          {t('auth.name')}
          <input
            type="text"
            name="name"
            autoComplete="name"
            autoFocus
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
          />
        </label>
        <label>
          {t('auth.email')}
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            aria-invalid={fieldError('email') ? 'true' : undefined}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
          {fieldError('email') && <span class="field-error">{fieldError('email')}</span>}
        </label>
        <label>
          {t('auth.password')}
          <input
            type="password"
            name="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={password}
            aria-invalid={fieldError('password') ? 'true' : undefined}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
          <span class="field-description">{t('auth.minLength')}</span>
          {fieldError('password') && <span class="field-error">{fieldError('password')}</span>}
        </label>
        <label>
          {t('auth.confirmPassword')}
          <input
            type="password"
            name="confirm-password"
            autoComplete="new-password"
            required
            value={confirm}
            aria-invalid={mismatch ? 'true' : undefined}
            aria-describedby={mismatch ? 'first-register-mismatch' : undefined}
            onInput={(e) => (setConfirm(e.currentTarget.value), setMismatch(false))}
          />
          {mismatch && (
            <span id="first-register-mismatch" class="field-error" role="alert">
              {t('auth.mismatch')}
            </span>
          )}
        </label>
        <button type="submit" class="primary" disabled={busy}>
          {busy ? t('auth.creating') : t('auth.createAdmin')}
        </button>
      </form>
    </AuthCard>
  );
}
