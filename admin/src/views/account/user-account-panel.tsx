/**
 * What an admin does for another user's sign-in (docs/accounts.md): copy a reset link (there may be no SMTP
 * to mail one), reset a lost second factor, see and end the user's sessions.
 */
import { deviceName } from '../../device-name.ts';
import { useEffect, useState } from 'preact/hooks';
import { account } from '../../account-api.ts';
import { formatDate, message } from '../../format.ts';
import { confirmDialog } from '../../ui/confirm-dialog.tsx';
import { ErrorBox } from '../../ui/error-box.tsx';
import { SecretRow } from '../../ui/secret-row.tsx';
import { toast } from '../../ui/toasts.tsx';
import { useSessions } from './account-security.tsx';
import { t } from '../../i18n/i18n.ts';

type UserId = number | string;

function ResetLink(props: { user: UserId }) {
  const [link, setLink] = useState<{ url: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = async () => {
    setError(null);
    try {
      const made = await account.resetLink(props.user);
      setLink(made);
      // Copying right away saves a click; the link stays shown for when the browser refuses.
      await navigator.clipboard?.writeText(made.url).then(
        () => toast(t('userAccount.resetCopied')),
        () => undefined,
      );
    } catch (e) {
      setError(message(e));
    }
  };
  return (
    <div class="account-part">
      <button type="button" onClick={() => void create()}>
        {t('userAccount.copyReset')}
      </button>
      <ErrorBox error={error} />
      {link && (
        <>
          <SecretRow text={link.url} label={t('userAccount.copyLink')} testId="reset-link" />
          <p class="muted small">{t('userAccount.validUntil', { date: formatDate(link.expiresAt) })}</p>
        </>
      )}
    </div>
  );
}

function TwoFactorReset(props: { user: UserId; label: string }) {
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(
    () =>
      void account.twoFactor(props.user).then(
        (r) => setEnabled(r.enabled),
        (e) => setError(message(e)),
      ),
    [props.user],
  );
  const reset = async () => {
    const ok = await confirmDialog({
      title: t('userAccount.resetTitle'),
      message: t('userAccount.resetMessage', { label: props.label }),
      confirm: t('userAccount.resetTwoFactor'),
      danger: true,
    });
    if (!ok) return;
    try {
      await account.resetTwoFactor(props.user);
      setEnabled(false);
      toast(t('userAccount.resetDone'));
    } catch (e) {
      setError(message(e));
    }
  };
  return (
    <div class="account-part">
      <ErrorBox error={error} />
      {enabled !== null && <p>{enabled ? t('security.isOn') : t('security.isOff')}</p>}
      {enabled && (
        <button type="button" class="danger-text" onClick={() => void reset()}>
          {t('userAccount.resetTwoFactor')}
        </button>
      )}
    </div>
  );
}

function UserSessions(props: { user: UserId }) {
  const { sessions, error, act } = useSessions(props.user);
  return (
    <div class="account-part">
      <h3>{t('userAccount.sessions')}</h3>
      <ErrorBox error={error} />
      {sessions?.length === 0 && <p class="muted">{t('userAccount.noSessions')}</p>}
      {sessions && sessions.length > 0 && (
        <>
          <ul class="user-sessions">
            {sessions.map((s) => (
              <li key={s.id}>
                <span class="truncate" title={s.userAgent ?? undefined}>
                  {deviceName(s.userAgent)}
                </span>
                <span class="muted small">
                  {s.ip ?? ''} · {t('userAccount.lastUsed', { date: formatDate(s.lastUsedAt) })}
                </span>
                <button type="button" class="link small" onClick={act(() => account.endSession(s.id, props.user))}>
                  {t('security.signOut')}
                </button>
              </li>
            ))}
          </ul>
          <button type="button" onClick={act(() => account.endOtherSessions(props.user))}>
            {t('userAccount.signOutEverywhere')}
          </button>
        </>
      )}
    </div>
  );
}

export function UserAccountPanel(props: { user: UserId; label: string }) {
  return (
    <section class="panel" aria-labelledby="user-account-title">
      <h2 class="panel-title" id="user-account-title">
        {t('account.securityTitle')}
      </h2>
      <ResetLink user={props.user} />
      <TwoFactorReset user={props.user} label={props.label} />
      <UserSessions user={props.user} />
    </section>
  );
}
