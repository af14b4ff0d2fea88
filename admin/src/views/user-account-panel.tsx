/**
 * What an admin does for another user's sign-in (docs/accounts.md): copy a reset link (there may be no SMTP
 * to mail one), reset a lost second factor, see and end the user's sessions.
 */
import { deviceName } from '../device-name.ts'
import { useEffect, useState } from 'preact/hooks'
import { account } from '../account-api.ts'
import { formatDate, message } from '../format.ts'
import { confirmDialog, ErrorBox, SecretRow, toast } from '../ui.tsx'
import { useSessions } from './account-security.tsx'

type UserId = number | string

function ResetLink(props: { user: UserId }) {
  const [link, setLink] = useState<{ url: string; expiresAt: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const create = async () => {
    setError(null)
    try {
      const made = await account.resetLink(props.user)
      setLink(made)
      // Copying right away saves a click; the link stays shown for when the browser refuses.
      await navigator.clipboard?.writeText(made.url).then(() => toast('Reset link copied'), () => undefined)
    } catch (e) {
      setError(message(e))
    }
  }
  return (
    <div class="account-part">
      <button type="button" onClick={() => void create()}>
        Copy reset link
      </button>
      <ErrorBox error={error} />
      {link && (
        <>
          <SecretRow text={link.url} label="Copy link" testId="reset-link" />
          <p class="muted small">Valid until {formatDate(link.expiresAt)}. Whoever opens it chooses the password.</p>
        </>
      )}
    </div>
  )
}

function TwoFactorReset(props: { user: UserId; label: string }) {
  const [enabled, setEnabled] = useState<boolean | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => void account.twoFactor(props.user).then((r) => setEnabled(r.enabled), (e) => setError(message(e))), [props.user])
  const reset = async () => {
    const ok = await confirmDialog({
      title: 'Reset two-factor sign-in?',
      message: `${props.label} will sign in with the password alone until they set it up again.`,
      confirm: 'Reset two-factor',
      danger: true,
    })
    if (!ok) return
    try {
      await account.resetTwoFactor(props.user)
      setEnabled(false)
      toast('Two-factor sign-in reset')
    } catch (e) {
      setError(message(e))
    }
  }
  return (
    <div class="account-part">
      <ErrorBox error={error} />
      {enabled !== null && <p>Two-factor sign-in is {enabled ? 'on' : 'off'}.</p>}
      {enabled && (
        <button type="button" class="danger-text" onClick={() => void reset()}>
          Reset two-factor
        </button>
      )}
    </div>
  )
}

function UserSessions(props: { user: UserId }) {
  const { sessions, error, act } = useSessions(props.user)
  return (
    <div class="account-part">
      <h3>Sessions</h3>
      <ErrorBox error={error} />
      {sessions?.length === 0 && <p class="muted">Not signed in anywhere.</p>}
      {sessions && sessions.length > 0 && (
        <>
          <ul class="user-sessions">
            {sessions.map((s) => (
              <li key={s.id}>
                <span class="truncate" title={s.userAgent ?? undefined}>{deviceName(s.userAgent)}</span>
                <span class="muted small">
                  {s.ip ?? ''} · last used {formatDate(s.lastUsedAt)}
                </span>
                <button type="button" class="link small" onClick={act(() => account.endSession(s.id, props.user))}>
                  Sign out
                </button>
              </li>
            ))}
          </ul>
          <button type="button" onClick={act(() => account.endOtherSessions(props.user))}>
            Sign out everywhere
          </button>
        </>
      )}
    </div>
  )
}

export function UserAccountPanel(props: { user: UserId; label: string }) {
  return (
    <section class="panel" aria-labelledby="user-account-title">
      <h2 class="panel-title" id="user-account-title">
        Sign-in and security
      </h2>
      <ResetLink user={props.user} />
      <TwoFactorReset user={props.user} label={props.label} />
      <UserSessions user={props.user} />
    </section>
  )
}
