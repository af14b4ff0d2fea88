/**
 * Actions on the selected rows of a list, through the bulk routes (docs/payload-compatibility.md): one
 * `PATCH|DELETE /:collection?where[id][in]=…` request; the server runs the single-document operation for
 * each (access, validation, versions, webhooks) and answers which ones failed. Failures are listed by
 * row and stay selected, so the editor can fix and retry them. Loaded on the first selection (list-view.tsx).
 */
import { useState } from 'preact/hooks'
import { docs, type BulkResult, type CollectionConfig, type Doc, type Field } from '../api.ts'
import { useApp } from '../app-context.ts'
import { fieldLabel, message, pluralLabel, singularLabel } from '../format.ts'
import { FieldInput } from '../form/fields.tsx'
import { dataFields, emptyValue, isReadOnly } from '../form/values.ts'
import { confirmDialog, Modal, toast } from '../ui.tsx'

type Outcome = { verb: string; failed: { id: string; title: string; message: string }[] }

const count = (c: CollectionConfig, n: number) => `${n} ${n === 1 ? singularLabel(c).toLowerCase() : pluralLabel(c).toLowerCase()}`

/** Fields one value can be set on for many documents at once (not unique ones' worth checking here: the server does). */
const editable = (c: CollectionConfig) => dataFields(c.fields).filter((f) => !isReadOnly(f) && f.type !== 'array' && f.type !== 'group' && f.type !== 'blocks')

export default function BulkActions(props: {
  collection: CollectionConfig
  selected: string[]
  /** The row titles, to name failures. */
  titles: Map<string, string>
  /** After a request: reload the list, keep these ids selected (the failed ones). */
  onDone: (keepSelected: string[]) => void
}) {
  const c = props.collection
  const { locale } = useApp()
  const [busy, setBusy] = useState(false)
  const [editing, setEditing] = useState(false)
  const [outcome, setOutcome] = useState<Outcome | null>(null)
  const n = props.selected.length
  const where = { id: { in: props.selected.join(',') } }

  const run = async (verb: string, request: () => Promise<BulkResult>) => {
    setBusy(true)
    try {
      const r = await request()
      const failed = r.errors.map((e) => ({ id: String(e.id), title: props.titles.get(String(e.id)) ?? `#${e.id}`, message: e.message }))
      if (r.docs.length) toast(`${verb} ${count(c, r.docs.length)}.`)
      setOutcome(failed.length ? { verb, failed } : null)
      props.onDone(failed.map((f) => f.id))
    } catch (e) {
      toast(message(e), 'error')
    } finally {
      setBusy(false)
    }
  }

  const remove = async () => {
    const ok = await confirmDialog({ title: `Delete ${count(c, n)}?`, message: 'This cannot be undone.', confirm: 'Delete', danger: true })
    if (ok) await run('Deleted', () => docs.removeMany(c.slug, where))
  }

  return (
    <>
      {outcome && (
        <div class="alert error bulk-errors" role="alert">
          <p>
            {count(c, outcome.failed.length)} could not be changed ({outcome.verb.toLowerCase()} the rest); they are still selected:
          </p>
          <ul>
            {outcome.failed.map((f) => (
              <li key={f.id}>
                <strong>{f.title}</strong>: {f.message}
              </li>
            ))}
          </ul>
          <button type="button" class="link" onClick={() => setOutcome(null)}>
            Dismiss
          </button>
        </div>
      )}
      {n > 0 && (
        <div class="bulk-bar" role="toolbar" aria-label="Bulk actions">
          <span>
            <strong>{n}</strong> selected
          </span>
          {c.drafts && (
            <>
              <button type="button" disabled={busy} onClick={() => run('Published', () => docs.updateMany(c.slug, where, { status: 'published' }, { locale }))}>
                Publish
              </button>
              <button type="button" disabled={busy} onClick={() => run('Unpublished', () => docs.updateMany(c.slug, where, { status: 'draft' }, { locale }))}>
                Unpublish
              </button>
            </>
          )}
          <button type="button" disabled={busy || editable(c).length === 0} onClick={() => setEditing(true)}>
            Edit a field
          </button>
          <button type="button" class="danger" disabled={busy} onClick={remove}>
            Delete
          </button>
          <button type="button" class="ghost" disabled={busy} onClick={() => props.onDone([])}>
            Clear selection
          </button>
        </div>
      )}
      {editing && (
        <BulkEditDialog
          collection={c}
          count={n}
          onClose={() => setEditing(false)}
          onSave={(data) => {
            setEditing(false)
            // Drafts collections save the change as each document's draft: nothing goes live unasked.
            void run('Updated', () => docs.updateMany(c.slug, where, data, { locale, draft: c.drafts }))
          }}
        />
      )}
    </>
  )
}

function BulkEditDialog(props: { collection: CollectionConfig; count: number; onClose: () => void; onSave: (data: Doc) => void }) {
  const fields = editable(props.collection)
  const [name, setName] = useState(fields[0]!.name)
  const field = fields.find((f) => f.name === name) as Field
  const [value, setValue] = useState<unknown>(emptyValue(field))
  return (
    <Modal
      title={`Edit ${count(props.collection, props.count)}`}
      onClose={props.onClose}
      footer={
        <>
          <button type="button" class="ghost" onClick={props.onClose}>
            Cancel
          </button>
          <button type="button" class="primary" onClick={() => props.onSave({ [name]: value })}>
            {props.collection.drafts ? 'Save as drafts' : 'Save'}
          </button>
        </>
      }
    >
      <div class="field">
        <label class="field-label" for="bulk-field">
          Field to set
        </label>
        <select
          id="bulk-field"
          value={name}
          onChange={(e) => {
            const next = fields.find((f) => f.name === e.currentTarget.value)!
            setName(next.name)
            setValue(emptyValue(next))
          }}
        >
          {fields.map((f) => (
            <option key={f.name} value={f.name}>
              {fieldLabel(f)}
            </option>
          ))}
        </select>
      </div>
      <FieldInput key={name} field={field} path={name} value={value} onChange={setValue} />
      <p class="muted">Every selected document gets this value{props.collection.drafts ? ' in a new draft; publish them to make it live' : ''}.</p>
    </Modal>
  )
}
