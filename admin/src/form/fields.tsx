/** One input per field type, and the frame around it (label, badges, description, inline error). */
import { createElement, type ComponentChildren, type FunctionComponent } from 'preact';
import { useContext } from 'preact/hooks';
import type { Doc, Field } from '../api.ts';
import { fieldLabel, fieldOptions } from '../format.ts';
import { editorFor, layoutEditor } from './field-editors.ts';
import { inputId, useForm, WriteContext, type FieldProps, type Writer } from './form-context.ts';
import { isLayoutField, isReadOnly } from './values.ts';
import { shallowEqual, useFormSelect, type FormStore } from './form-store.ts';
import { Icon } from '../ui.tsx';
import { language } from '../i18n/i18n.ts';

/**
 * The fields of a document, a group or a row. Layout fields (tabs, rows, collapsibles) edit the same
 * value as the list they sit in; a field whose condition is false for the values typed is left out.
 * `position` picks the top-level fields of the main column or of the sidebar (`admin.position`).
 * Inside a form that provides a writer (WriteContext) each field writes its own path into the form's current
 * values, and `onChange` is not called; without one (a lone input, as in bulk edit) changes go up `onChange`.
 * Given the form's `store` instead of a `value`, each field reads its own value from it and renders again
 * only when that value changes: the list, and the view around it, do not render for a key.
 */
export function FieldList(props: {
  fields: Field[];
  value?: Doc;
  /** The form's values at this list's level (a form's top), instead of `value`. */
  store?: FormStore;
  onChange?: (v: Doc) => void;
  path?: string;
  position?: 'main' | 'sidebar';
  /** The form's writer, given by the list at a form's top; nested lists take it from there. */
  writer?: Writer;
}) {
  if (props.writer)
    return (
      <WriteContext.Provider value={props.writer}>
        <FieldList {...props} writer={undefined} />
      </WriteContext.Provider>
    );
  return <Fields {...props} />;
}

function Fields(props: Parameters<typeof FieldList>[0]) {
  const form = useForm();
  const writer = useContext(WriteContext);
  const onChange = props.onChange ?? (() => {});
  const Layout = layoutEditor();
  const shown = props.position
    ? props.fields.filter((f) => (f.admin?.position === 'sidebar') === (props.position === 'sidebar'))
    : props.fields;
  return (
    <>
      {shown.map((f, i) => {
        if (isLayoutField(f) && props.store)
          return <BoundLayout key={`${f.type}-${i}`} store={props.store} field={f} path={props.path ?? ''} />;
        if (isLayoutField(f))
          return (
            <Layout
              key={`${f.type}-${i}`}
              field={f}
              path={props.path ?? ''}
              value={props.value ?? {}}
              onChange={onChange}
            />
          );
        const path = props.path ? `${props.path}.${f.name}` : f.name;
        if (f.admin?.condition && form.visible?.[path] === false) return null;
        if (props.store && writer)
          return <BoundField key={f.name} store={props.store} field={f} path={path} onChange={writer.at(path)} />;
        return (
          <FieldInput
            key={f.name}
            field={f}
            path={path}
            value={props.value?.[f.name]}
            onChange={writer ? writer.at(path) : (v) => onChange({ ...props.value, [f.name]: v })}
          />
        );
      })}
    </>
  );
}

/**
 * The editor registered for the field's type (form/editors.tsx), inside its frame unless it draws its own.
 * It renders again only when its field, path, value or writer changed: typing in one field leaves the
 * others of a long document alone.
 */
export const FieldInput = renderOnChange(function FieldInput(props: FieldProps) {
  const editor = editorFor(props.field);
  const Editor = editor.component;
  if (editor.framed === false) return <Editor {...props} />;
  return (
    <FieldFrame field={props.field} path={props.path}>
      <Editor {...props} />
    </FieldFrame>
  );
});

/** A field at the top of a form: its value read from the store, rendered again only when it changes. */
const BoundField = renderOnChange(function BoundField(props: Omit<FieldProps, 'value'> & { store: FormStore }) {
  const { store, ...rest } = props;
  const name = props.field.name;
  const value = useFormSelect(store, (values) => values[name]);
  return <FieldInput {...rest} value={value} />;
});

/** The names of the values a layout field's fields edit (through rows, collapsibles and unnamed tabs). */
function namesUnder(field: Field): string[] {
  const inside = [...(field.fields ?? []), ...(field.tabs ?? []).flatMap((t) => (t.name ? [] : t.fields))];
  const named = (field.tabs ?? []).flatMap((t) => (t.name ? [t.name] : []));
  return [...named, ...inside.flatMap((f) => (isLayoutField(f) ? namesUnder(f) : [f.name]))];
}

/**
 * A layout field at the top of a form: it renders again when a value its fields edit changes (its fields
 * skip those whose own value did not), not for a key in a field outside it.
 */
const BoundLayout = renderOnChange(function BoundLayout(props: { store: FormStore; field: Field; path: string }) {
  const Layout = layoutEditor();
  const names = namesUnder(props.field);
  const value = useFormSelect(
    props.store,
    (values) => Object.fromEntries(names.map((n) => [n, values[n]])) as Doc,
    shallowEqual,
  );
  return <Layout field={props.field} path={props.path} value={value} onChange={() => {}} />;
});

/**
 * `component`, rendered again only when one of its props changed (as preact/compat's `memo`, without the
 * compat layer in the first load), or the admin's language did. Context it reads still reaches it.
 */
export function renderOnChange<P extends object>(component: FunctionComponent<P>): FunctionComponent<P> {
  function Memoised(this: { props: P; shouldComponentUpdate?: (next: P) => boolean }, props: P) {
    const words = language();
    this.shouldComponentUpdate = (next: P) => {
      if (language() !== words) return true;
      const prev = this.props as Record<string, unknown>;
      const now = next as Record<string, unknown>;
      for (const k in prev) if (!(k in now)) return true;
      for (const k in now) if (prev[k] !== now[k]) return true;
      return false;
    };
    return createElement(component, props);
  }
  Memoised.displayName = `Memo(${component.displayName ?? component.name})`;
  return Memoised as unknown as FunctionComponent<P>;
}

/** A field's label with its badges: the required star (unless `star` is false) and the locale being edited. */
export function LabelText(props: { field: Field; star?: boolean }) {
  const form = useForm();
  return (
    <>
      {fieldLabel(props.field)}
      {props.star !== false && props.field.required && (
        <span class="req" aria-hidden="true">
          *
        </span>
      )}
      {props.field.localized && form.locale && (
        <span class="locale-tag" aria-hidden="true">
          {form.locale}
        </span>
      )}
    </>
  );
}

/** Label, badges, description and the inline error, wired to the control by id and aria attributes. */
export function FieldFrame(props: {
  field: Field;
  path: string;
  children: ComponentChildren;
  as?: 'div' | 'fieldset';
}) {
  const { field, path } = props;
  const form = useForm();
  const error = form.errors[path];
  const id = inputId(path);
  const description = typeof field.admin?.description === 'string' ? field.admin.description : null;
  const label = <LabelText field={field} />;
  const labelClass = field.label === false ? 'field-label visually-hidden' : 'field-label';
  return (
    <div class={`field field-${field.type} ${error ? 'has-error' : ''}`} data-path={path}>
      {props.as === 'fieldset' ? (
        <span class={labelClass} id={`${id}-label`}>
          {label}
        </span>
      ) : (
        <label class={labelClass} for={id}>
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
  );
}

/** Attributes every native control gets: id, aria links to the error and description, disabled. */
export function useControlProps(props: { field: Field; path: string }) {
  const form = useForm();
  const id = inputId(props.path);
  const error = form.errors[props.path];
  const describedBy = [error ? `${id}-error` : '', props.field.admin?.description ? `${id}-desc` : '']
    .filter(Boolean)
    .join(' ');
  const locked = isReadOnly(props.field) || form.disabled || Boolean(form.lockedFields?.has(props.path));
  return {
    id,
    name: props.path,
    disabled: locked,
    'aria-invalid': error ? ('true' as const) : undefined,
    'aria-required': props.field.required ? ('true' as const) : undefined,
    'aria-describedby': describedBy || undefined,
  };
}

export const placeholderOf = (f: Field) => (typeof f.admin?.placeholder === 'string' ? f.admin.placeholder : undefined);

export function TextInput(props: FieldProps<string | null>) {
  const attrs = useControlProps(props);
  const placeholder = placeholderOf(props.field);
  const common = {
    ...attrs,
    value: props.value ?? '',
    placeholder,
    autoComplete: 'off',
    onInput: (e: { currentTarget: HTMLInputElement }) =>
      props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value),
  };
  return props.field.type === 'email' ? <input type="email" {...common} /> : <input type="text" {...common} />;
}

export function TextArea(props: FieldProps<string | null>) {
  const attrs = useControlProps(props);
  return (
    <textarea
      {...attrs}
      rows={4}
      placeholder={placeholderOf(props.field)}
      value={props.value ?? ''}
      onInput={(e) => props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}
    />
  );
}

export function NumberInput(props: FieldProps<number | null>) {
  const attrs = useControlProps(props);
  return (
    <input
      {...attrs}
      type="number"
      step="any"
      class="narrow"
      placeholder={placeholderOf(props.field)}
      value={props.value ?? ''}
      onInput={(e) => {
        const t = e.currentTarget.value;
        if (t === '') props.onChange(null);
        else if (Number.isFinite(Number(t))) props.onChange(Number(t));
      }}
    />
  );
}

/** `<input type=datetime-local>` works in local time; the API stores ISO 8601 (UTC). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** `2026-03-01T09:30` typed in the local zone → ISO UTC, or null while empty or incomplete. */
export function fromLocalInput(v: string): string | null {
  if (!v) return null;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function DateInput(props: FieldProps<string | null>) {
  const attrs = useControlProps(props);
  return (
    <input
      {...attrs}
      type="datetime-local"
      class="narrow"
      value={toLocalInput(props.value)}
      onInput={(e) => props.onChange(fromLocalInput(e.currentTarget.value))}
    />
  );
}

export function SelectInput(props: FieldProps<string | null>) {
  const attrs = useControlProps(props);
  return (
    <select
      {...attrs}
      class="narrow"
      value={props.value ?? ''}
      onChange={(e) => props.onChange(e.currentTarget.value === '' ? null : e.currentTarget.value)}
    >
      <option value="">— Select —</option>
      {fieldOptions(props.field).map((o) => (
        <option value={o.value} key={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}

export function CheckboxField(props: FieldProps<boolean>) {
  const attrs = useControlProps(props);
  const form = useForm();
  const error = form.errors[props.path];
  return (
    <div class={`field field-checkbox ${error ? 'has-error' : ''}`} data-path={props.path}>
      <label class="check">
        <input
          {...attrs}
          type="checkbox"
          checked={Boolean(props.value)}
          onChange={(e) => props.onChange(e.currentTarget.checked)}
        />
        <span>
          <LabelText field={props.field} star={false} />
        </span>
      </label>
      {error && (
        <p class="field-error" id={`${attrs.id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** `label` names the row for screen readers ("Move "Intro" up"); `title` is the short tooltip. */
export function RowButton(props: {
  icon: string;
  label: string;
  title: string;
  disabled: boolean;
  onClick: () => void;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      class={props.danger ? 'icon-button danger-text' : 'icon-button'}
      disabled={props.disabled}
      aria-label={props.label}
      title={props.title}
      onClick={props.onClick}
    >
      <Icon name={props.icon} />
    </button>
  );
}
