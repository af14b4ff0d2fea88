/**
 * A rich text field: the Lexical editor is a chunk of its own, fetched the first time a rich text field
 * is on screen, so the admin's first load does not grow with it (docs/admin.md).
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { fieldLabel, message } from '../format.ts';
import { ErrorBox } from '../ui/error-box.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { inputId, useForm, type FieldProps } from './form-context.ts';
import { isReadOnly } from './values.ts';
import type { EditorProps } from '../richtext/editor.tsx';

let loading: Promise<ComponentType<EditorProps>> | null = null;
const loadEditor = () => (loading ??= import('../richtext/editor.tsx').then((m) => m.default));

export function RichTextField(props: FieldProps) {
  const [Editor, setEditor] = useState<ComponentType<EditorProps> | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm();
  useEffect(() => {
    loadEditor().then(
      (E) => setEditor(() => E),
      (e) => setError(message(e)),
    );
  }, []);
  if (error) return <ErrorBox error={error} />;
  if (!Editor) return <Spinner />;
  return (
    <Editor
      id={inputId(props.path)}
      path={props.path}
      label={fieldLabel(props.field)}
      value={props.value as EditorProps['value']}
      onChange={props.onChange}
      readOnly={isReadOnly(props.field) || Boolean(form.readOnly) || Boolean(form.lockedFields?.has(props.path))}
      features={props.field.features ?? undefined}
      blocks={props.field.blocks ?? undefined}
    />
  );
}
