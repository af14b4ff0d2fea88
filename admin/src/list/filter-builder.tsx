/**
 * The filter panel of a list, built from the collection's field types: each row is field · operator ·
 * value, rows are ANDed, and "Apply" writes them into the address (list-filter.ts) so reload, back and a
 * shared link keep them. Edits stay local until applied, so a half-typed value sends no request.
 * Loaded on first use (list-view.tsx).
 */
import { useEffect, useState } from 'preact/hooks'
import type { CollectionConfig } from '../api.ts'
import { fromLocalInput, toLocalInput } from '../form/fields.tsx'
import { Icon } from '../ui.tsx'
import { defaultValue, filterFields, OPERATORS, type Condition, type FilterField } from './list-filter.ts'

export default function FilterPanel(props: { collection: CollectionConfig; applied: Condition[]; onApply: (conditions: Condition[]) => void }) {
  const fields = filterFields(props.collection)
  const [rows, setRows] = useState<Condition[]>(props.applied)
  const appliedKey = JSON.stringify(props.applied)
  useEffect(() => setRows(props.applied), [appliedKey, props.collection.slug])

  const fieldOf = (path: string) => fields.find((f) => f.path === path)
  const set = (i: number, change: Partial<Condition>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)))
  const add = () => {
    const f = fields[0]!
    const op = OPERATORS[f.kind][0]!.op
    setRows([...rows, { field: f.path, op, value: defaultValue(f, op) }])
  }
  const apply = (next: Condition[]) => props.onApply(next.filter((r) => r.value !== ''))

  return (
    <form
      id="filter-panel"
      class="filter-panel"
      aria-label="Filters"
      onSubmit={(e) => {
        e.preventDefault()
        apply(rows)
      }}
    >
      {rows.length === 0 && <p class="muted">No filters: every document is listed.</p>}
      {rows.map((r, i) => {
        const f = fieldOf(r.field)
        const ops = f ? OPERATORS[f.kind] : [{ op: r.op, label: r.op }]
        return (
          <div class="filter-row" key={i}>
            {i > 0 && <span class="muted and">and</span>}
            <select
              aria-label={`Field of filter ${i + 1}`}
              value={r.field}
              onChange={(e) => {
                const nf = fieldOf(e.currentTarget.value)
                const op = nf ? OPERATORS[nf.kind][0]!.op : r.op
                set(i, { field: e.currentTarget.value, op, value: defaultValue(nf, op) })
              }}
            >
              {!f && <option value={r.field}>{r.field}</option>}
              {fields.map((x) => (
                <option key={x.path} value={x.path}>
                  {x.label}
                </option>
              ))}
            </select>
            <select aria-label={`Operator of filter ${i + 1}`} value={r.op} onChange={(e) => set(i, { op: e.currentTarget.value, value: defaultValue(f, e.currentTarget.value) })}>
              {ops.map((o) => (
                <option key={o.op} value={o.op}>
                  {o.label}
                </option>
              ))}
            </select>
            <ValueInput field={f} condition={r} label={`Value of filter ${i + 1}`} onChange={(value) => set(i, { value })} />
            <button type="button" class="icon-button" aria-label={`Remove filter ${i + 1}`} onClick={() => apply(rows.filter((_, j) => j !== i))}>
              <Icon name="x" />
            </button>
          </div>
        )
      })}
      <div class="filter-actions">
        <button type="button" class="ghost" onClick={add}>
          <Icon name="plus" /> Add a filter
        </button>
        <span class="spacer" />
        {props.applied.length > 0 && (
          <button type="button" class="ghost" onClick={() => apply([])}>
            Clear
          </button>
        )}
        <button type="submit" class="primary">
          Apply
        </button>
      </div>
    </form>
  )
}

const YES_NO = [
  { label: 'yes', value: 'true' },
  { label: 'no', value: 'false' },
]

/** The value control for a field kind; dates are typed in local time and sent as ISO UTC. */
function ValueInput(props: { field: FilterField | undefined; condition: Condition; label: string; onChange: (v: string) => void }) {
  const { field, condition } = props
  const choices = condition.op === 'exists' || field?.kind === 'checkbox' ? YES_NO : field?.kind === 'select' && !['in', 'not_in'].includes(condition.op) ? field.options : undefined
  if (choices) {
    return (
      <select aria-label={props.label} value={condition.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {choices.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    )
  }
  if (field?.kind === 'date') {
    return (
      <input
        type="datetime-local"
        aria-label={props.label}
        value={toLocalInput(condition.value)}
        onInput={(e) => props.onChange(fromLocalInput(e.currentTarget.value) ?? '')}
      />
    )
  }
  return (
    <input
      type="text"
      inputMode={field?.kind === 'number' ? 'decimal' : undefined}
      aria-label={props.label}
      placeholder={condition.op === 'in' || condition.op === 'not_in' ? 'comma-separated' : undefined}
      value={condition.value}
      onInput={(e) => props.onChange(e.currentTarget.value)}
    />
  )
}
