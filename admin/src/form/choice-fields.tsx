/** Choosing from a list: `select` with `hasMany`, and `relationship` (documents of another collection). */
import { useEffect, useState } from 'preact/hooks'
import { docs, type Doc } from '../api.ts'
import { findCollection, useApp } from '../app-context.ts'
import { docTitle, message } from '../format.ts'
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

// ---------------------------------------------------------------- relationship

const optionCache = new Map<string, Promise<Doc[]>>()

/** Forget cached choices of a collection (after its documents changed). */
export function forgetChoices(slug: string): void {
  for (const key of optionCache.keys()) if (key.startsWith(`${slug}|`)) optionCache.delete(key)
}

function loadChoices(slug: string, sort: string | undefined, locale: string | undefined): Promise<Doc[]> {
  const key = `${slug}|${locale ?? ''}`
  let p = optionCache.get(key)
  if (!p) {
    p = docs.list(slug, { limit: 100, sort, locale }).then((r) => r.docs)
    p.catch(() => optionCache.delete(key))
    optionCache.set(key, p)
  }
  return p
}

/** Ids arrive as numbers (depth=0) or, rarely, populated objects. */
const idOf = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : typeof v === 'object' ? String((v as Doc).id) : String(v))
const toId = (s: string): number | string => (/^\d+$/.test(s) ? Number(s) : s)

export function RelationshipField(props: FieldProps) {
  const { config, locale } = useApp()
  const target = findCollection(config, props.field.relationTo ?? undefined)
  const [options, setOptions] = useState<Option[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const attrs = useControlProps(props)

  useEffect(() => {
    if (!target) return setError(`Unknown collection "${props.field.relationTo}".`)
    const title = target.admin?.useAsTitle
    loadChoices(target.slug, title && title !== 'id' ? title : undefined, locale)
      .then((list) => setOptions(list.map((d) => ({ value: String(d.id), label: docTitle(target, d) }))))
      .catch((e) => setError(message(e)))
  }, [target?.slug, locale])

  if (error) return <p class="field-error">{error}</p>
  if (!options) return <select {...attrs} class="narrow" disabled><option>Loading…</option></select>

  if (props.field.hasMany) {
    const chosen = (Array.isArray(props.value) ? props.value : []).map(idOf).filter((x): x is string => x !== null)
    return <Chips {...props} options={options} chosen={chosen} onPick={(v) => props.onChange(v.map(toId))} />
  }
  const current = idOf(props.value)
  const known = current === null || options.some((o) => o.value === current)
  return (
    <select {...attrs} class="narrow" value={current ?? ''} onChange={(e) => props.onChange(e.currentTarget.value === '' ? null : toId(e.currentTarget.value))}>
      <option value="">— None —</option>
      {!known && <option value={current!}>#{current}</option>}
      {options.map((o) => (
        <option value={o.value} key={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  )
}
