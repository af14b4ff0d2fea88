/**
 * The filter panel of a list, built from the collection's field types: each row is field · operator ·
 * value, rows are ANDed, and "Apply" writes them into the address (list-filter.ts) so reload, back and a
 * shared link keep them. Edits stay local until applied, so a half-typed value sends no request.
 * A relationship's value is chosen with the relationship field's own document picker, fetched the first
 * time such a row shows (relation-filter.tsx), so the list's first load does not carry it.
 */
import { useEffect, useState } from 'preact/hooks';
import type { CollectionConfig } from '../api.ts';
import { fromLocalInput, toLocalInput } from '../form/fields.tsx';
import { lazyComponent } from '../lazy.tsx';
import { Icon } from '../ui.tsx';
import { defaultValue, filterFields, OPERATORS, takesList, type Condition, type FilterField } from './list-filter.ts';
import { t } from '../i18n/i18n.ts';

export default function FilterPanel(props: {
  collection: CollectionConfig;
  applied: Condition[];
  onApply: (conditions: Condition[]) => void;
}) {
  const fields = filterFields(props.collection);
  const [rows, setRows] = useState<Condition[]>(props.applied);
  const appliedKey = JSON.stringify(props.applied);
  useEffect(() => setRows(props.applied), [appliedKey, props.collection.slug]);

  const fieldOf = (path: string) => fields.find((f) => f.path === path);
  const set = (i: number, change: Partial<Condition>) =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const add = () => {
    const f = fields[0]!;
    const op = OPERATORS[f.kind][0]!.op;
    setRows([...rows, { field: f.path, op, value: defaultValue(f, op) }]);
  };
  const apply = (next: Condition[]) => props.onApply(next.filter((r) => r.value !== ''));

  return (
    <form
      id="filter-panel"
      class="filter-panel"
      aria-label={t('list.filters')}
      onSubmit={(e) => {
        e.preventDefault();
        apply(rows);
      }}
    >
      {rows.length === 0 && <p class="muted">{t('filter.none')}</p>}
      {rows.map((r, i) => {
        const f = fieldOf(r.field);
        const ops = f ? OPERATORS[f.kind] : [{ op: r.op, label: r.op }];
        return (
          <div class="filter-row" key={i}>
            {i > 0 && <span class="muted and">{t('filter.and')}</span>}
            <select
              aria-label={t('filter.fieldOf', { n: i + 1 })}
              value={r.field}
              onChange={(e) => {
                const nf = fieldOf(e.currentTarget.value);
                const op = nf ? OPERATORS[nf.kind][0]!.op : r.op;
                set(i, { field: e.currentTarget.value, op, value: defaultValue(nf, op) });
              }}
            >
              {!f && <option value={r.field}>{r.field}</option>}
              {fields.map((x) => (
                <option key={x.path} value={x.path}>
                  {x.label}
                </option>
              ))}
            </select>
            <select
              aria-label={t('filter.operatorOf', { n: i + 1 })}
              value={r.op}
              onChange={(e) => set(i, { op: e.currentTarget.value, value: defaultValue(f, e.currentTarget.value) })}
            >
              {ops.map((o) => (
                <option key={o.op} value={o.op}>
                  {o.label}
                </option>
              ))}
            </select>
            {f?.kind === 'relation' && r.op !== 'exists' ? (
              <RelationValue
                field={f}
                condition={r}
                id={`filter-${i + 1}-value`}
                label={t('filter.valueOf', { n: i + 1 })}
                collection={collectionOf(rows, f)}
                onCollection={(slug) => setRows(withCollection(rows, i, f, slug))}
                onChange={(value) => set(i, { value })}
              />
            ) : (
              <ValueInput
                field={f}
                condition={r}
                label={t('filter.valueOf', { n: i + 1 })}
                onChange={(value) => set(i, { value })}
              />
            )}
            <button
              type="button"
              class="icon-button"
              aria-label={t('filter.remove', { n: i + 1 })}
              onClick={() => apply(rows.filter((_, j) => j !== i))}
            >
              <Icon name="x" />
            </button>
          </div>
        );
      })}
      <div class="filter-actions">
        <button type="button" class="ghost" onClick={add}>
          <Icon name="plus" /> {t('filter.add')}
        </button>
        <span class="spacer" />
        {props.applied.length > 0 && (
          <button type="button" class="ghost" onClick={() => apply([])}>
            {t('filter.clear')}
          </button>
        )}
        <button type="submit" class="primary">
          {t('filter.apply')}
        </button>
      </div>
    </form>
  );
}

const RelationValue = lazyComponent(() => import('./relation-filter.tsx').then((m) => m.RelationValue));

/**
 * The collection a relationship filter searches: the field's only one, or for a relationship to several,
 * the one an `<field>.relationTo` row names (the filter stays one API query, exact after a reload).
 */
function collectionOf(rows: Condition[], f: FilterField): string | undefined {
  if (!Array.isArray(f.relationTo)) return f.relationTo ?? 'media';
  const base = f.path.replace(/\.value$/, '');
  return rows.find((r) => r.field === `${base}.relationTo` && r.op === 'equals')?.value ?? f.relationTo[0];
}

/** Picking the collection first for a relationship to several: its `relationTo` row is set (or added) and the chosen documents dropped. */
function withCollection(rows: Condition[], i: number, f: FilterField, slug: string): Condition[] {
  const key = `${f.path.replace(/\.value$/, '')}.relationTo`;
  const next = rows.map((r, j) => (j === i ? { ...r, value: '' } : r));
  const at = next.findIndex((r) => r.field === key && r.op === 'equals');
  if (at >= 0) return next.map((r, j) => (j === at ? { ...r, value: slug } : r));
  return [...next.slice(0, i), { field: key, op: 'equals', value: slug }, ...next.slice(i)];
}

const yesNo = () => [
  { label: t('filter.yes'), value: 'true' },
  { label: t('filter.no'), value: 'false' },
];

/** The value control for a field kind; dates are typed in local time and sent as ISO UTC. */
function ValueInput(props: {
  field: FilterField | undefined;
  condition: Condition;
  label: string;
  onChange: (v: string) => void;
}) {
  const { field, condition } = props;
  const choices =
    condition.op === 'exists' || field?.kind === 'checkbox'
      ? yesNo()
      : field?.kind === 'select' && !takesList(condition.op)
        ? field.options
        : undefined;
  if (choices) {
    return (
      <select aria-label={props.label} value={condition.value} onChange={(e) => props.onChange(e.currentTarget.value)}>
        {choices.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    );
  }
  if (field?.kind === 'date') {
    return (
      <input
        type="datetime-local"
        aria-label={props.label}
        value={toLocalInput(condition.value)}
        onInput={(e) => props.onChange(fromLocalInput(e.currentTarget.value) ?? '')}
      />
    );
  }
  return (
    <input
      type="text"
      inputMode={field?.kind === 'number' ? 'decimal' : undefined}
      aria-label={props.label}
      placeholder={takesList(condition.op) ? t('filter.commaSeparated') : undefined}
      value={condition.value}
      onInput={(e) => props.onChange(e.currentTarget.value)}
    />
  );
}
