/** t('account.securityTitle'): turn two-factor sign-in on or off, and see and end one's sessions. */
import { deviceName } from '../../device-name.ts';
import type { FunctionComponent } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { account, type SessionInfo } from '../../account-api.ts';
import { formatDate, message } from '../../format.ts';
import { ErrorBox } from '../../ui/error-box.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { toast } from '../../ui/toasts.tsx';
import { LanguagePicker } from './language-picker.tsx';
import { t } from '../../i18n/i18n.ts';

type QrComponent = FunctionComponent<{ text: string; label: string }>;
let qrModule: Promise<QrComponent> | null = null;

/** The QR code of the otpauth URL; its encoder is fetched only once a setup shows it (views/account/qr-code.tsx). */
function SetupQrCode(props: { url: string }) {
  const [Qr, setQr] = useState<QrComponent | null>(null);
  useEffect(() => {
    qrModule ??= import('./qr-code.tsx').then((m) => m.default);
    let live = true;
    qrModule.then(
      (c) => live && setQr(() => c),
      () => (qrModule = null),
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <div class="qr-frame">
      {Qr ? <Qr text={props.url} label={t('security.qrLabel')} /> : <Spinner label={t('security.qrLoading')} />}
    </div>
  );
}

/** `onContinue`: shown beside the recovery codes when enrolment is a step of signing in (auth.requireTwoFactor). */
export function TwoFactorPanel(props: { onContinue?: () => void }) {
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [setup, setSetup] = useState<{ secret: string; otpauthUrl: string } | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(
    () =>
      void account.twoFactor().then(
        (r) => setEnabled(r.enabled),
        (e) => setError(message(e)),
      ),
    [],
  );
  const run = (work: () => Promise<void>) => async (e?: Event) => {
    e?.preventDefault();
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(message(err));
    }
  };
  if (enabled === null) return error ? <ErrorBox error={error} /> : <Spinner />;
  return (
    <section class="card">
      <h2>{t('security.twoFactor')}</h2>
      <ErrorBox error={error} />
      {recoveryCodes && (
        <div role="status">
          <p>{t('security.codesIntro')}</p>
          <ul class="recovery-codes">
            {recoveryCodes.map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
          {props.onContinue && (
            <button type="button" class="primary" onClick={props.onContinue}>
              {t('security.continue')}
            </button>
          )}
        </div>
      )}
      {enabled && !recoveryCodes && <p>{t('security.isOn')}</p>}
      {enabled && !props.onContinue && (
        <form
          class="form"
          onSubmit={run(async () => {
            await account.disableTwoFactor(password);
            setEnabled(false);
            setRecoveryCodes(null);
            setPassword('');
            toast(t('security.turnedOff'));
          })}
        >
          <label>
            {t('auth.password')}
            <input
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          </label>
          <button type="submit">{t('security.turnOff')}</button>
        </form>
      )}
      {!enabled && !setup && (
        <>
          <p class="muted">{t('security.intro')}</p>
          <button type="button" class="primary" onClick={run(async () => setSetup(await account.setupTwoFactor()))}>
            {t('security.setUp')}
          </button>
        </>
      )}
      {!enabled && setup && (
        <form
          class="form"
          onSubmit={run(async () => {
            setRecoveryCodes((await account.enableTwoFactor(code)).recoveryCodes);
            setEnabled(true);
            setSetup(null);
            setCode('');
          })}
        >
          <p>
            {t('security.scanBefore')} <a href={setup.otpauthUrl}>{t('security.scanLink')}</a> {t('security.scanAfter')}
          </p>
          <SetupQrCode url={setup.otpauthUrl} />
          <p>
            {t('security.key')} <code data-testid="totp-secret">{setup.secret}</code>
          </p>
          <label>
            {t('security.codeFromApp')}
            <input
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </label>
          <button type="submit" class="primary">
            {t('security.turnOn')}
          </button>
        </form>
      )}
    </section>
  );
}

/** One's own sessions, or with `user` (admins) another user's; `act` runs a change and reloads the list. */
export function useSessions(user?: number | string) {
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    account.sessions(user).then(
      (r) => setSessions(r.docs),
      (e) => setError(message(e)),
    );
  useEffect(() => void load(), [user]);
  const act = (work: () => Promise<unknown>) => async () => {
    setError(null);
    try {
      await work();
      await load();
    } catch (err) {
      setError(message(err));
    }
  };
  return { sessions, error, act };
}

function SessionsPanel() {
  const { sessions, error, act } = useSessions();
  if (!sessions) return error ? <ErrorBox error={error} /> : <Spinner />;
  return (
    <section class="card">
      <h2>{t('security.whereSignedIn')}</h2>
      <ErrorBox error={error} />
      <div class="table-scroll">
        <table class="table">
          <thead>
            <tr>
              <th scope="col">{t('security.device')}</th>
              <th scope="col">{t('security.address')}</th>
              <th scope="col">{t('security.lastUsed')}</th>
              <th scope="col">
                <span class="visually-hidden">{t('ops.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.map((s) => (
              <tr key={s.id}>
                <td title={s.userAgent ?? undefined}>
                  {deviceName(s.userAgent)}
                  {s.current && <strong>{t('security.thisOne')}</strong>}
                </td>
                <td>{s.ip ?? ''}</td>
                <td>{formatDate(s.lastUsedAt)}</td>
                <td>
                  {!s.current && (
                    <button type="button" onClick={act(() => account.endSession(s.id))}>
                      {t('security.signOut')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {sessions.length > 1 && (
        <button type="button" onClick={act(() => account.endOtherSessions())}>
          {t('security.signOutOthers')}
        </button>
      )}
    </section>
  );
}

export function AccountSecurity() {
  return (
    <section class="security">
      <h1 tabIndex={-1}>{t('account.securityTitle')}</h1>
      <LanguagePicker />
      <TwoFactorPanel />
      <SessionsPanel />
    </section>
  );
}
