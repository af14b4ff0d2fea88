import { useRef } from 'preact/hooks';
import { useControlProps } from './fields.tsx';
import type { FieldProps } from './form-context.ts';
import { t } from '../i18n/i18n.ts';

/**
 * `code`: monospace text where Tab inserts a tab. Escape then Tab leaves the box, so the keyboard is never
 * trapped; `admin.language` is shown as a hint.
 */
export function CodeField(props: FieldProps<string | null>) {
  const attrs = useControlProps(props);
  const leaving = useRef(false);
  const text = props.value ?? '';
  const language = typeof props.field.admin?.language === 'string' ? props.field.admin.language : null;
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
            leaving.current = true;
            return;
          }
          if (e.key !== 'Tab' || e.shiftKey || e.ctrlKey || e.altKey || e.metaKey || leaving.current) {
            leaving.current = false;
            return;
          }
          e.preventDefault();
          const box = e.currentTarget;
          const { selectionStart: start, selectionEnd: end } = box;
          const next = `${box.value.slice(0, start)}\t${box.value.slice(end)}`;
          box.value = next;
          box.selectionStart = box.selectionEnd = start + 1;
          props.onChange(next);
        }}
        onInput={(e) => props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}
      />
      <p class="field-hint muted small">
        {language ? `${language} · ` : ''}
        {t('fields.codeTab')}
      </p>
    </>
  );
}
