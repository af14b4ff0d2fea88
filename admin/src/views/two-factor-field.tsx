/** The second-factor field of the login and reset forms, shown once the server names `code`. */
import { useEffect, useState } from 'preact/hooks'
import type { ApiError } from '../api.ts'

/** True from the first answer that asks for a two-factor code. */
export function useTwoFactorPrompt(error: ApiError | null): boolean {
  const [asked, setAsked] = useState(false)
  useEffect(() => {
    if (error?.errors.some((e) => e.field === 'code')) setAsked(true)
  }, [error])
  return asked
}

export function TwoFactorCodeField(props: { value: string; onInput: (value: string) => void }) {
  return (
    <label>
      Two-factor code
      <input
        type="text" name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus
        value={props.value} onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      <span class="field-description">The 6-digit code from your authenticator app, or a recovery code.</span>
    </label>
  )
}
