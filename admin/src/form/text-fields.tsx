/** Fields edited as text but stored as something else: `json` (parsed on the fly) and `markdown` (with a preview). */
import { useEffect, useState } from 'preact/hooks';
import { renderMarkdown } from '../markdown.ts';
import { useControlProps } from './fields.tsx';
import { useForm, type FieldProps } from './form-context.ts';
import { t } from '../i18n/i18n.ts';

const pretty = (v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v, null, 2));

export function JsonField(props: FieldProps) {
  const attrs = useControlProps(props);
  const form = useForm();
  const [text, setText] = useState(() => pretty(props.value));
  const [bad, setBad] = useState<string | null>(null);

  // A new value from outside (document loaded, locale switched) replaces the text unless it is what we sent.
  useEffect(() => {
    let same = false;
    try {
      same = text.trim() !== '' && JSON.stringify(JSON.parse(text)) === JSON.stringify(props.value);
    } catch {
      same = false;
    }
    if (!same && !(text.trim() === '' && (props.value === null || props.value === undefined))) {
      setText(pretty(props.value));
      setBad(null);
      form.setClientError(props.path, null);
    }
  }, [JSON.stringify(props.value ?? null)]);

  useEffect(() => () => form.setClientError(props.path, null), []);

  const onInput = (input: string) => {
    setText(input);
    if (input.trim() === '') {
      setBad(null);
      form.setClientError(props.path, null);
      return props.onChange(null);
    }
    try {
      const v = JSON.parse(input);
      setBad(null);
      form.setClientError(props.path, null);
      props.onChange(v);
    } catch (e) {
      const m = t('fields.badJson', { reason: e instanceof Error ? e.message : String(e) });
      setBad(m);
      form.setClientError(props.path, m);
    }
  };

  return (
    <>
      <textarea
        {...attrs}
        class="code"
        rows={Math.min(16, Math.max(4, text.split('\n').length + 1))}
        spellcheck={false}
        value={text}
        onInput={(e) => onInput(e.currentTarget.value)}
        aria-invalid={bad || attrs['aria-invalid'] ? 'true' : undefined}
      />
      {bad && <p class="field-error">{bad}</p>}
    </>
  );
}

export function MarkdownField(props: FieldProps<string | null>) {
  const attrs = useControlProps(props);
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const text = props.value ?? '';
  return (
    <div class="markdown">
      <div class="tabs" role="tablist" aria-label={t('fields.markdown')}>
        <button type="button" role="tab" aria-selected={tab === 'write'} onClick={() => setTab('write')}>
          {t('fields.write')}
        </button>
        <button type="button" role="tab" aria-selected={tab === 'preview'} onClick={() => setTab('preview')}>
          {t('fields.preview')}
        </button>
      </div>
      {tab === 'write' ? (
        <textarea
          {...attrs}
          class="code"
          rows={Math.min(24, Math.max(6, text.split('\n').length + 1))}
          value={text}
          onInput={(e) => props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}
        />
      ) : (
        <div
          class="prose"
          role="tabpanel"
          dangerouslySetInnerHTML={{
            __html: text ? renderMarkdown(text) : `<p class="muted">${t('fields.nothingToPreview')}</p>`,
          }}
        />
      )}
    </div>
  );
}
