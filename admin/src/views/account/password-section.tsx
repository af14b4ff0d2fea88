/**
 * The password part of a user form. The API never returns passwords (or hashes); it only accepts a new
 * one: on create (admins may leave it empty to invite: the server answers with an invitation link), behind
 * "Change password" on edit.
 */
import { useForm } from '../../form/form-context.ts';
import { t } from '../../i18n/i18n.ts';

export interface PasswordState {
  open: boolean;
  value: string;
  confirm: string;
}

export const MIN_PASSWORD = 8;

/** Why the password cannot be sent yet, or null. `invite`: an empty password on create makes an invitation. */
export function passwordProblem(
  p: PasswordState,
  creating: boolean,
  invite = false,
): { field: string; message: string } | null {
  if (!p.open) return null;
  if (!p.value && (!creating || (invite && !p.confirm))) return null;
  if (!p.value) return { field: 'password', message: t('password.required') };
  if (p.value.length < MIN_PASSWORD) return { field: 'password', message: t('password.tooShort', { n: MIN_PASSWORD }) };
  if (p.value !== p.confirm) return { field: 'confirmPassword', message: t('password.mismatch') };
  return null;
}

export function PasswordSection(props: {
  state: PasswordState;
  onChange: (s: PasswordState) => void;
  creating: boolean;
  own: boolean;
  invite?: boolean;
}) {
  const form = useForm();
  const s = props.state;
  const set = (p: Partial<PasswordState>) => props.onChange({ ...s, ...p });
  if (!s.open) {
    return (
      <div class="field">
        <span class="field-label">{t('auth.password')}</span>
        <div>
          <button type="button" onClick={() => set({ open: true })}>
            {t('password.change')}
          </button>
        </div>
      </div>
    );
  }
  const errPassword = form.errors.password;
  const errConfirm = form.errors.confirmPassword;
  const required = props.creating && !props.invite;
  return (
    <fieldset class="group password-group">
      <legend>{props.creating ? t('auth.password') : t('password.change')}</legend>
      <div class="group-body">
        <div class={`field ${errPassword ? 'has-error' : ''}`} data-path="password">
          <label class="field-label" for="field-password">
            {props.creating ? t('auth.password') : t('auth.newPassword')}
            {required && (
              <span class="req" aria-hidden="true">
                *
              </span>
            )}
          </label>
          <input
            id="field-password"
            type="password"
            autoComplete="new-password"
            class="narrow"
            value={s.value}
            disabled={form.disabled}
            aria-required={required ? 'true' : undefined}
            aria-invalid={errPassword ? 'true' : undefined}
            aria-describedby={errPassword ? 'field-password-error field-password-desc' : 'field-password-desc'}
            onInput={(e) => set({ value: e.currentTarget.value })}
          />
          <p class="field-description" id="field-password-desc">
            {t('password.atLeast', { n: MIN_PASSWORD })}
            {props.creating && props.invite ? t('password.invite') : ''}
            {!props.creating && props.own ? t('password.ownSessions') : ''}
            {!props.creating && !props.own ? t('password.userSessions') : ''}
          </p>
          {errPassword && (
            <p class="field-error" id="field-password-error">
              {errPassword}
            </p>
          )}
        </div>
        <div class={`field ${errConfirm ? 'has-error' : ''}`} data-path="confirmPassword">
          <label class="field-label" for="field-confirmPassword">
            {t('password.confirm')}
          </label>
          <input
            id="field-confirmPassword"
            type="password"
            autoComplete="new-password"
            class="narrow"
            value={s.confirm}
            disabled={form.disabled}
            aria-invalid={errConfirm ? 'true' : undefined}
            aria-describedby={errConfirm ? 'field-confirmPassword-error' : undefined}
            onInput={(e) => set({ confirm: e.currentTarget.value })}
          />
          {errConfirm && (
            <p class="field-error" id="field-confirmPassword-error">
              {errConfirm}
            </p>
          )}
        </div>
        {!props.creating && (
          <div>
            <button
              type="button"
              class="link small"
              onClick={() => props.onChange({ open: false, value: '', confirm: '' })}
            >
              {t('password.keep')}
            </button>
          </div>
        )}
      </div>
    </fieldset>
  );
}
