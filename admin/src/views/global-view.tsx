/** Edit a global (a single document): same form as collections, saved with `POST /globals/:slug`. */
import { useEffect, useState } from 'preact/hooks'
import { ApiError, globals, type Doc, type GlobalConfig } from '../api.ts'
import { useApp } from '../app-context.ts'
import { ErrorSummary, LocaleSwitcher, useDocumentForm, useSaveShortcut } from '../form/document-form.tsx'
import { FieldList } from '../form/fields.tsx'
import { FormContext } from '../form/form-context.ts'
import { changedFields } from '../form/values.ts'
import { formatDate, globalLabel, message } from '../format.ts'
import { ErrorBox, Spinner, toast } from '../ui.tsx'
import { VersionsPanel } from './versions-panel.tsx'

type SaveMode = 'save' | 'draft' | 'publish'

export function GlobalView(props: { global: GlobalConfig }) {
  const g = props.global
  const { locale } = useApp()
  const form = useDocumentForm(g.fields)
  const [doc, setDoc] = useState<Doc | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [saves, setSaves] = useState(0)

  useEffect(() => {
    let live = true
    setDoc(null)
    setLoadError(null)
    form.clearErrors()
    globals
      .get(g.slug, { locale, draft: g.drafts })
      .then((d) => live && (setDoc(d), form.reset(d)))
      .catch((e) => live && setLoadError(message(e)))
    return () => {
      live = false
    }
  }, [g.slug, locale])

  const save = async (mode: SaveMode) => {
    if (form.busy) return
    if (Object.keys(form.clientErrors).length) return form.showError(new ApiError(400, Object.values(form.clientErrors)[0]!))
    const data: Doc = changedFields(g.fields, form.values, form.initial)
    if (mode === 'publish') data.status = 'published'
    if (Object.keys(data).length === 0 && mode === 'save') return toast('Nothing to save', 'info')
    form.setBusy(true)
    form.clearErrors()
    try {
      const r = await globals.save(g.slug, data, { locale, draft: mode === 'draft' })
      setDoc(r.doc)
      form.reset(r.doc)
      setSaves((n) => n + 1)
      toast(mode === 'publish' ? 'Published' : mode === 'draft' ? 'Draft saved' : 'Saved')
    } catch (e) {
      form.showError(e)
    } finally {
      form.setBusy(false)
    }
  }
  useSaveShortcut(() => void save(g.drafts ? 'draft' : 'save'))

  if (loadError)
    return (
      <section>
        <h1 tabIndex={-1}>{globalLabel(g)}</h1>
        <ErrorBox error={loadError} />
      </section>
    )
  if (!doc) return <Spinner />
  const status = typeof doc.status === 'string' ? doc.status : null

  return (
    <section class="edit">
      <header class="edit-head">
        <div class="edit-title">
          <div class="breadcrumb muted">Global</div>
          <h1 tabIndex={-1}>{globalLabel(g)}</h1>
        </div>
        <div class="actions">
          <LocaleSwitcher dirty={form.dirty} fields={g.fields} />
          {form.dirty && <span class="unsaved" role="status">Unsaved changes</span>}
          {g.drafts ? (
            <>
              <button type="button" onClick={() => void save('draft')} disabled={form.busy}>
                Save draft
              </button>
              <button type="button" class="primary" onClick={() => void save('publish')} disabled={form.busy}>
                Publish
              </button>
            </>
          ) : (
            <button type="button" class="primary" onClick={() => void save('save')} disabled={form.busy || !form.dirty}>
              {form.busy ? 'Saving…' : 'Save'}
            </button>
          )}
        </div>
      </header>
      <div class="edit-grid">
        <form
          class="edit-main"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            void save(g.drafts ? 'draft' : 'save')
          }}
        >
          <ErrorSummary form={form} fields={g.fields} />
          <FormContext.Provider value={form.formContext}>
            <div class="fields">
              <FieldList fields={g.fields} value={form.values} onChange={form.setValues} />
            </div>
          </FormContext.Provider>
          <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
        </form>
        <aside class="edit-aside">
          <section class="panel" aria-label="Details">
            <dl class="facts">
              {g.drafts && (
                <div>
                  <dt>Status</dt>
                  <dd>
                    <span class={`badge ${status === 'published' ? 'ok' : 'draft'}`}>{status ?? 'draft'}</span>
                  </dd>
                </div>
              )}
              <div>
                <dt>Updated</dt>
                <dd>{doc.updatedAt ? formatDate(doc.updatedAt) : 'Never saved'}</dd>
              </div>
            </dl>
          </section>
          {g.drafts && (
            <VersionsPanel
              owner={{ global: g.slug }}
              reloadKey={saves}
              dirty={form.dirty}
              onRestored={(d) => {
                setDoc(d)
                form.reset(d)
                setSaves((n) => n + 1)
              }}
            />
          )}
        </aside>
      </div>
    </section>
  )
}
