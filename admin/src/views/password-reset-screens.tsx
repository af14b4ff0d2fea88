/** Logged-out screens for a forgotten password and for the link in a reset or invitation mail. */
import { useState } from 'preact/hooks'
import { auth, type LoginResult } from '../api.ts'
import { Link } from '../router.tsx'
import { ErrorBox } from '../ui.tsx'
import { AuthCard, useSubmit } from './auth-screens.tsx'
import { TwoFactorCodeField, useTwoFactorPrompt } from './two-factor-field.tsx'

export function ForgotPasswordForm() {
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState<string | null>(null)
  // On success the form gives way to the server's answer, so busy needs no reset.
  const { busy, error, submit } = useSubmit(() => auth.forgotPassword(email), (r) => setSent(r.message))
  return (
    <AuthCard title="Forgot password" intro="Enter your email and we send you a link to choose a new password.">
      {sent ? (
        <p role="status">{sent}</p>
      ) : (
        <form onSubmit={submit} class="form">
          <ErrorBox error={error?.message} />
          <label>
            Email
            <input type="email" name="email" autoComplete="username" required autoFocus value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          </label>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Sending…' : 'Send link'}
          </button>
        </form>
      )}
      <Link to="/">Back to log in</Link>
    </AuthCard>
  )
}

export function ResetPasswordForm(props: { token: string; onDone: (r: LoginResult) => void }) {
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const { busy, error, submit } = useSubmit(() => auth.resetPassword(props.token, password, code), props.onDone)
  const needsCode = useTwoFactorPrompt(error)
  const fieldError = (f: string) => error?.errors.find((x) => x.field === f)?.message
  const general = error && !fieldError('password') ? error.message : null
  return (
    <AuthCard title="Choose a password">
      <form onSubmit={submit} class="form">
        <ErrorBox error={general} />
        <label>
          New password
          <input type="password" name="password" autoComplete="new-password" required minLength={8} autoFocus value={password} aria-invalid={fieldError('password') ? 'true' : undefined} onInput={(e) => setPassword(e.currentTarget.value)} />
          <span class="field-description">At least 8 characters.</span>
          {fieldError('password') && <span class="field-error">{fieldError('password')}</span>}
        </label>
        {needsCode && <TwoFactorCodeField value={code} onInput={setCode} />}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Set password and log in'}
        </button>
      </form>
      {fieldError('token') && <Link to="/forgot-password">Ask for a new link</Link>}
    </AuthCard>
  )
}
