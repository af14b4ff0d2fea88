/** Fields edited as text but stored as something else: `json` (parsed on the fly) and `markdown` (with a preview). */
import { useEffect, useRef, useState } from 'preact/hooks'
import { renderMarkdown } from '../markdown.ts'
import { useControlProps } from './fields.tsx'
import { useForm, type FieldProps } from './form-context.ts'

const pretty = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v, null, 2))

export function JsonField(props: FieldProps) {
  const attrs = useControlProps(props)
  const form = useForm()
  const [text, setText] = useState(() => pretty(props.value))
  const [bad, setBad] = useState<string | null>(null)

  // A new value from outside (document loaded, locale switched) replaces the text unless it is what we sent.
  useEffect(() => {
    let same = false
    try {
      same = text.trim() !== '' && JSON.stringify(JSON.parse(text)) === JSON.stringify(props.value)
    } catch {
      same = false
    }
    if (!same && !(text.trim() === '' && (props.value === null || props.value === undefined))) {
      setText(pretty(props.value))
      setBad(null)
      form.setClientError(props.path, null)
    }
  }, [JSON.stringify(props.value ?? null)])

  useEffect(() => () => form.setClientError(props.path, null), [])

  const onInput = (t: string) => {
    setText(t)
    if (t.trim() === '') {
      setBad(null)
      form.setClientError(props.path, null)
      return props.onChange(null)
    }
    try {
      const v = JSON.parse(t)
      setBad(null)
      form.setClientError(props.path, null)
      props.onChange(v)
    } catch (e) {
      const m = `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`
      setBad(m)
      form.setClientError(props.path, m)
    }
  }

  return (
    <>
      <textarea {...attrs} class="code" rows={Math.min(16, Math.max(4, text.split('\n').length + 1))} spellcheck={false} value={text} onInput={(e) => onInput(e.currentTarget.value)} aria-invalid={bad || attrs['aria-invalid'] ? 'true' : undefined} />
      {bad && <p class="field-error">{bad}</p>}
    </>
  )
}

export function MarkdownField(props: FieldProps<string | null>) {
  const attrs = useControlProps(props)
  const [tab, setTab] = useState<'write' | 'preview'>('write')
  const text = props.value ?? ''
  return (
    <div class="markdown">
      <div class="tabs" role="tablist" aria-label="Markdown editor">
        <button type="button" role="tab" aria-selected={tab === 'write'} onClick={() => setTab('write')}>
          Write
        </button>
        <button type="button" role="tab" aria-selected={tab === 'preview'} onClick={() => setTab('preview')}>
          Preview
        </button>
      </div>
      {tab === 'write' ? (
        <textarea {...attrs} class="code" rows={Math.min(24, Math.max(6, text.split('\n').length + 1))} value={text} onInput={(e) => props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)} />
      ) : (
        <div class="prose" role="tabpanel" dangerouslySetInnerHTML={{ __html: text ? renderMarkdown(text) : '<p class="muted">Nothing to preview.</p>' }} />
      )}
    </div>
  )
}

/**
 * `code`: monospace text where Tab inserts a tab. Escape then Tab leaves the box, so the keyboard is never
 * trapped; `admin.language` is shown as a hint.
 */
export function CodeField(props: FieldProps<string | null>) {
  const attrs = useControlProps(props)
  const leaving = useRef(false)
  const text = props.value ?? ''
  const language = typeof props.field.admin?.language === 'string' ? props.field.admin.language : null
  return (
    <>
      <textarea
        {...attrs}
        class="code"
        spellcheck={false}
        data-language={language ?? undefined}
        rows={Math.min(24, Math.max(4, text.split('\n').length + 1))}
        placeholder={typeof props.field.admin?.placeholder === 'string' ? props.field.admin.placeholder : undefined}
        value={text}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            leaving.current = true
            return
          }
          if (e.key !== 'Tab' || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey || leaving.current) {
            leaving.current = false
            return
          }
          e.preventDefault()
          const box = e.currentTarget
          const { selectionStart: start, selectionEnd: end } = box
          const next = `${box.value.slice(0, start)}\t${box.value.slice(end)}`
          box.value = next
          box.selectionStart = box.selectionEnd = start + 1
          props.onChange(next)
        }}
        onInput={(e) => props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}
      />
      <p class="field-hint muted small">
        {language ? `${language} · ` : ''}Tab inserts a tab; press Escape, then Tab, to move on.
      </p>
    </>
  )
}
