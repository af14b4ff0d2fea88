/** One input per field type, and the frame around it (label, badges, description, inline error). */
import type { ComponentChildren } from 'preact'
import type { Doc, Field } from '../api.ts'
import { fieldLabel } from '../format.ts'
import { ArrayField, GroupField } from './structure-fields.tsx'
import { BlocksField } from './blocks-field.tsx'
import { MultiSelect, RadioField } from './choice-fields.tsx'
import { JoinField } from './join-field.tsx'
import { LayoutField } from './layout-fields.tsx'
import { PointField } from './point-field.tsx'
import { PolymorphicField } from './polymorphic-field.tsx'
import { RelationshipField } from './relationship-field.tsx'
import { isScopesField, ScopesField } from './scopes-field.tsx'
import { CodeField, JsonField, MarkdownField } from './text-fields.tsx'
import { UploadField } from './upload-field.tsx'
import { RichTextField } from './rich-text-field.tsx'
import { inputId, useForm, type FieldProps } from './form-context.ts'
import { isLayoutField, isReadOnly } from './values.ts'

/**
 * The fields of a document, a group or a row. Layout fields (tabs, rows, collapsibles) edit the same
 * value as the list they sit in; a field whose condition is false for the values typed is left out.
 * `position` picks the top-level fields of the main column or of the sidebar (`admin.position`).
 */
export function FieldList(props: { fields: Field[]; value: Doc; onChange: (v: Doc) => void; path?: string; position?: 'main' | 'sidebar' }) {
  const form = useForm()
  const shown = props.position ? props.fields.filter((f) => (f.admin?.position === 'sidebar') === (props.position === 'sidebar')) : props.fields
  return (
    <>
      {shown.map((f, i) => {
        if (isLayoutField(f)) return <LayoutField key={`${f.type}-${i}`} field={f} path={props.path ?? ''} value={props.value ?? {}} onChange={props.onChange} />
        const path = props.path ? `${props.path}.${f.name}` : f.name
        if (f.admin?.condition && form.visible?.[path] === false) return null
        return <FieldInput key={f.name} field={f} path={path} value={props.value?.[f.name]} onChange={(v) => props.onChange({ ...props.value, [f.name]: v })} />
      })}
    </>
  )
}

export function FieldInput(props: FieldProps) {
  switch (props.field.type) {
    case 'group':
      return <GroupField {...(props as FieldProps<Doc>)} />
    case 'array':
      return <ArrayField {...(props as FieldProps<Doc[]>)} />
    case 'checkbox':
      return <CheckboxField {...(props as FieldProps<boolean>)} />
    case 'blocks':
      return <BlocksField {...(props as FieldProps<Doc[]>)} />
    case 'radio':
      return <RadioField {...(props as FieldProps<string | null>)} />
    case 'point':
      return <PointField {...(props as FieldProps<[number, number] | null>)} />
    case 'join':
      return <JoinField field={props.field} path={props.path} />
    default:
      return (
        <FieldFrame field={props.field} path={props.path}>
          <Control {...props} />
        </FieldFrame>
      )
  }
}

function Control(props: FieldProps) {
  const { field } = props
  if (isScopesField(field)) return <ScopesField {...props} />
  switch (field.type) {
    case 'textarea':
      return <TextArea {...(props as FieldProps<string | null>)} />
    case 'markdown':
      return <MarkdownField {...(props as FieldProps<string | null>)} />
    case 'json':
      return <JsonField {...props} />
    case 'richText':
      return <RichTextField {...props} />
    case 'number':
      return <NumberInput {...(props as FieldProps<number | null>)} />
    case 'date':
      return <DateInput {...(props as FieldProps<string | null>)} />
    case 'select':
      return field.hasMany ? <MultiSelect {...(props as FieldProps<string[]>)} /> : <SelectInput {...(props as FieldProps<string | null>)} />
    case 'relationship':
      return Array.isArray(field.relationTo) ? <PolymorphicField {...props} /> : <RelationshipField {...props} />
    case 'code':
      return <CodeField {...(props as FieldProps<string | null>)} />
    case 'upload':
      return <UploadField {...(props as FieldProps<number | string | null>)} />
    default:
      return <TextInput {...(props as FieldProps<string | null>)} type={field.type === 'email' ? 'email' : 'text'} />
  }
}

/** Label, badges, description and the inline error, wired to the control by id and aria attributes. */
export function FieldFrame(props: { field: Field; path: string; children: ComponentChildren; as?: 'div' | 'fieldset' }) {
  const { field, path } = props
  const form = useForm()
  const error = form.errors[path]
  const id = inputId(path)
  const description = typeof field.admin?.description === 'string' ? field.admin.description : null
  const label = (
    <>
      {fieldLabel(field)}
      {field.required && (
        <span class="req" aria-hidden="true">
          *
        </span>
      )}
      {field.localized && form.locale && <span class="locale-tag" aria-hidden="true">{form.locale}</span>}
    </>
  )
  return (
    <div class={`field field-${field.type} ${error ? 'has-error' : ''}`} data-path={path}>
      {props.as === 'fieldset' ? (
        <span class="field-label" id={`${id}-label`}>
          {label}
        </span>
      ) : (
        <label class="field-label" for={id}>
          {label}
        </label>
      )}
      {props.children}
      {description && (
        <p class="field-description" id={`${id}-desc`}>
          {description}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  )
}

/** Attributes every native control gets: id, aria links to the error and description, disabled. */
export function useControlProps(props: { field: Field; path: string }) {
  const form = useForm()
  const id = inputId(props.path)
  const error = form.errors[props.path]
  const describedBy = [error ? `${id}-error` : '', props.field.admin?.description ? `${id}-desc` : ''].filter(Boolean).join(' ')
  const locked = isReadOnly(props.field) || form.disabled || Boolean(form.lockedFields?.has(props.path))
  return {
    id,
    name: props.path,
    disabled: locked,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-required': props.field.required ? ('true' as const) : undefined,
    'aria-describedby': describedBy || undefined,
  }
}

export const placeholderOf = (f: Field) => (typeof f.admin?.placeholder === 'string' ? f.admin.placeholder : undefined)

function TextInput(props: FieldProps<string | null> & { type: 'text' | 'email' }) {
  const attrs = useControlProps(props)
  const placeholder = placeholderOf(props.field)
  const common = {
    ...attrs,
    value: props.value ?? '',
    placeholder,
    autoComplete: 'off',
    onInput: (e: { currentTarget: HTMLInputElement }) => props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value),
  }
  return props.type === 'email' ? <input type="email" {...common} /> : <input type="text" {...common} />
}

function TextArea(props: FieldProps<string | null>) {
  const attrs = useControlProps(props)
  return <textarea {...attrs} rows={4} placeholder={placeholderOf(props.field)} value={props.value ?? ''} onInput={(e) => props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)} />
}

function NumberInput(props: FieldProps<number | null>) {
  const attrs = useControlProps(props)
  return (
    <input
      {...attrs}
      type="number"
      step="any"
      class="narrow"
      placeholder={placeholderOf(props.field)}
      value={props.value ?? ''}
      onInput={(e) => {
        const t = e.currentTarget.value
        if (t === '') props.onChange(null)
        else if (Number.isFinite(Number(t))) props.onChange(Number(t))
      }}
    />
  )
}

/** `<input type=datetime-local>` works in local time; the API stores ISO 8601 (UTC). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const p = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`
}

/** `2026-03-01T09:30` typed in the local zone → ISO UTC, or null while empty or incomplete. */
export function fromLocalInput(v: string): string | null {
  if (!v) return null
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}

function DateInput(props: FieldProps<string | null>) {
  const attrs = useControlProps(props)
  return (
    <input
      {...attrs}
      type="datetime-local"
      class="narrow"
      value={toLocalInput(props.value)}
      onInput={(e) => props.onChange(fromLocalInput(e.currentTarget.value))}
    />
  )
}

function SelectInput(props: FieldProps<string | null>) {
  const attrs = useControlProps(props)
  return (
    <select {...attrs} class="narrow" value={props.value ?? ''} onChange={(e) => props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}>
      <option value="">— Select —</option>
      {(props.field.options ?? []).map((o) => (
        <option value={o.value} key={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  )
}

function CheckboxField(props: FieldProps<boolean>) {
  const attrs = useControlProps(props)
  const form = useForm()
  const error = form.errors[props.path]
  return (
    <div class={`field field-checkbox ${error ? 'has-error' : ''}`} data-path={props.path}>
      <label class="check">
        <input {...attrs} type="checkbox" checked={Boolean(props.value)} onChange={(e) => props.onChange(e.currentTarget.checked)} />
        <span>
          {fieldLabel(props.field)}
          {props.field.localized && form.locale && <span class="locale-tag" aria-hidden="true">{form.locale}</span>}
        </span>
      </label>
      {error && (
        <p class="field-error" id={`${attrs.id}-error`}>
          {error}
        </p>
      )}
    </div>
  )
}
