/** Fields that hold other fields: `group` (a nested object) and `array` (rows you add, remove and reorder). */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Doc } from '../api.ts';
import { Icon } from '../ui.tsx';
import { FieldList, LabelText, RowButton } from './fields.tsx';
import { inputId, useForm, type FieldProps } from './form-context.ts';
import { newRow } from './values.ts';
import { t, tn } from '../i18n/i18n.ts';

export function GroupField(props: FieldProps<Doc>) {
  const form = useForm();
  const error = form.errors[props.path];
  return (
    <fieldset class="group" data-path={props.path}>
      <legend>
        <LabelText field={props.field} star={false} />
      </legend>
      {error && <p class="field-error">{error}</p>}
      <div class="group-body">
        <FieldList
          fields={props.field.fields ?? []}
          value={props.value ?? {}}
          onChange={props.onChange}
          path={props.path}
        />
      </div>
    </fieldset>
  );
}

/** A row's heading: its first text value, else "Row n". */
function rowTitle(row: Doc, fields: FieldProps['field']['fields'], index: number): string {
  for (const f of fields ?? []) {
    const v = row[f.name];
    if ((f.type === 'text' || f.type === 'email') && typeof v === 'string' && v.trim()) return v;
  }
  return t('fields.rowN', { n: index + 1 });
}

export function ArrayField(props: FieldProps<Doc[]>) {
  const form = useForm();
  const { field, path } = props;
  const rows = Array.isArray(props.value) ? props.value : [];
  const fields = field.fields ?? [];
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const focusRow = useRef<string | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const error = form.errors[path];
  const disabled = form.disabled || Boolean(field.admin?.readOnly);

  useEffect(() => {
    if (!focusRow.current) return;
    const el = listRef.current?.querySelector<HTMLElement>(
      `[data-row="${focusRow.current}"] .row-body input, [data-row="${focusRow.current}"] .row-body textarea, [data-row="${focusRow.current}"] .row-body select`,
    );
    el?.focus();
    focusRow.current = null;
  });

  const keyOf = (row: Doc, i: number) => String(row.id ?? `i${i}`);
  const set = (next: Doc[]) => props.onChange(next);
  const move = (i: number, by: number) => {
    const next = [...rows];
    const [row] = next.splice(i, 1);
    next.splice(i + by, 0, row!);
    set(next);
  };
  const add = () => {
    const row = newRow(fields);
    focusRow.current = String(row.id);
    set([...rows, row]);
  };
  const toggle = (key: string) => {
    const next = new Set(collapsed);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    setCollapsed(next);
  };

  return (
    <div
      class={`field field-array ${error ? 'has-error' : ''}`}
      data-path={path}
      role="group"
      aria-labelledby={`${inputId(path)}-label`}
    >
      <div class="array-head">
        <span class="field-label" id={`${inputId(path)}-label`}>
          <LabelText field={field} />
        </span>
        <span class="muted small">{tn('fields.rows', rows.length)}</span>
      </div>
      {error && <p class="field-error">{error}</p>}
      <ol class="rows" ref={listRef}>
        {rows.map((row, i) => {
          const key = keyOf(row, i);
          const open = !collapsed.has(key);
          const title = rowTitle(row, fields, i);
          return (
            <li class="row" key={key} data-row={key}>
              <div class="row-head">
                <button type="button" class="row-toggle" aria-expanded={open} onClick={() => toggle(key)}>
                  <Icon name="chevron" />
                  <span class="row-title">{title}</span>
                </button>
                <div class="row-actions">
                  <RowButton
                    icon="up"
                    disabled={disabled || i === 0}
                    label={t('fields.moveUpNamed', { title })}
                    title={t('fields.moveUp')}
                    onClick={() => move(i, -1)}
                  />
                  <RowButton
                    icon="down"
                    disabled={disabled || i === rows.length - 1}
                    label={t('fields.moveDownNamed', { title })}
                    title={t('fields.moveDown')}
                    onClick={() => move(i, 1)}
                  />
                  <RowButton
                    icon="trash"
                    danger
                    disabled={disabled}
                    label={t('fields.removeNamed', { title })}
                    title={t('fields.remove')}
                    onClick={() => set(rows.filter((_, j) => j !== i))}
                  />
                </div>
              </div>
              {open && (
                <div class="row-body">
                  <FieldList
                    fields={fields}
                    value={row}
                    path={`${path}.${i}`}
                    onChange={(v) => set(rows.map((r, j) => (j === i ? v : r)))}
                  />
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <button type="button" class="add-row" disabled={disabled} onClick={add}>
        <Icon name="plus" /> {rows.length ? t('fields.addAnotherRow') : t('fields.addRow')}
      </button>
    </div>
  );
}
