/** Choosing from a list: `select` with `hasMany` as chips. Relationships have their own picker (relationship-field.tsx). */
import { Icon } from '../ui.tsx'
import { useControlProps } from './fields.tsx'
import type { FieldProps } from './form-context.ts'

type Option = { value: string; label: string }

/** Chosen values as removable chips, plus a select to add one more. Keyboard-friendly, no popup to build. */
function Chips(props: FieldProps<unknown> & { options: Option[]; chosen: string[]; onPick: (values: string[]) => void; placeholder?: string }) {
  const attrs = useControlProps(props)
  const labelOf = (v: string) => props.options.find((o) => o.value === v)?.label ?? `#${v}`
  const rest = props.options.filter((o) => !props.chosen.includes(o.value))
  return (
    <div class="chips-field">
      {props.chosen.length > 0 && (
        <ul class="chips" aria-label="Selected">
          {props.chosen.map((v) => (
            <li class="chip" key={v}>
              <span>{labelOf(v)}</span>
              <button type="button" disabled={attrs.disabled} aria-label={`Remove ${labelOf(v)}`} onClick={() => props.onPick(props.chosen.filter((x) => x !== v))}>
                <Icon name="x" size={12} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <select
        {...attrs}
        class="narrow"
        value=""
        disabled={attrs.disabled || rest.length === 0}
        onChange={(e) => {
          const v = e.currentTarget.value
          if (v) props.onPick([...props.chosen, v])
          e.currentTarget.value = ''
        }}
      >
        <option value="">{rest.length === 0 ? (props.options.length ? 'All chosen' : 'Nothing to choose') : (props.placeholder ?? '+ Add…')}</option>
        {rest.map((o) => (
          <option value={o.value} key={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}

export function MultiSelect(props: FieldProps<string[]>) {
  const chosen = Array.isArray(props.value) ? props.value.map(String) : []
  return <Chips {...(props as FieldProps<unknown>)} options={props.field.options ?? []} chosen={chosen} onPick={(v) => props.onChange(v)} />
}
