/**
 * Which columns a list shows, chosen per user and collection and kept in localStorage
 * (`cms-columns:<user id>:<collection>`), so each editor's choice survives reloads without a server
 * setting. The title column always shows: it is the row's link.
 */
import { useState } from 'preact/hooks';
import type { CollectionConfig, Field } from '../api.ts';
import { fieldLabel } from '../format.ts';
import { Icon } from '../ui.tsx';
import { dataFields } from '../form/values.ts';
import { useDismissableDetails } from '../popup-menu.tsx';
import { t } from '../i18n/i18n.ts';

export interface Column {
  key: string;
  label: string;
  field?: Field;
}

const SHOWN_BY_DEFAULT = new Set(['text', 'email', 'number', 'checkbox', 'date', 'select', 'relationship', 'upload']);
const NEVER = new Set(['array', 'group', 'json']);

/** Every column the table can show besides the title: fields with a cell text, then the system fields. */
export function columnChoices(c: CollectionConfig, titleKey: string): Column[] {
  const fields = dataFields(c.fields)
    .filter((f) => f.name !== titleKey && !NEVER.has(f.type))
    .map((f) => ({ key: f.name, label: fieldLabel(f), field: f }));
  return [
    ...fields,
    ...(c.drafts ? [{ key: 'status', label: t('common.status') }] : []),
    ...(titleKey !== 'id' ? [{ key: 'id', label: 'ID' }] : []),
    { key: 'createdAt', label: t('common.created') },
    { key: 'updatedAt', label: t('common.updated') },
  ];
}

/** Without a saved choice: up to three short scalar fields, the status, the update time. */
export function defaultColumns(c: CollectionConfig, titleKey: string): string[] {
  const extra = dataFields(c.fields)
    .filter((f) => f.name !== titleKey && SHOWN_BY_DEFAULT.has(f.type) && !f.hasMany)
    .slice(0, 3);
  return [...extra.map((f) => f.name), ...(c.drafts ? ['status'] : []), 'updatedAt'];
}

const storageKey = (userId: unknown, slug: string) => `cms-columns:${userId}:${slug}`;

function readSaved(userId: unknown, slug: string): string[] | null {
  try {
    const v = JSON.parse(localStorage.getItem(storageKey(userId, slug)) ?? 'null');
    return Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : null;
  } catch {
    return null;
  }
}

/** The visible columns (in the collection's order) and a setter that remembers the choice. */
export function useColumns(
  c: CollectionConfig,
  titleKey: string,
  userId: unknown,
): [Column[], Column[], (keys: string[]) => void] {
  const choices = columnChoices(c, titleKey);
  // Read once: the shell remounts the list view for each collection (its key is `list:<slug>`).
  const [keys, setKeys] = useState<string[]>(() => readSaved(userId, c.slug) ?? defaultColumns(c, titleKey));
  const shown = choices.filter((col) => keys.includes(col.key));
  const choose = (next: string[]) => {
    try {
      localStorage.setItem(storageKey(userId, c.slug), JSON.stringify(next));
    } catch {
      // Storage full or blocked: the choice lasts for this page only.
    }
    setKeys(next);
  };
  return [choices, shown, choose];
}

export function ColumnPicker(props: { choices: Column[]; shown: Column[]; onChange: (keys: string[]) => void }) {
  const shownKeys = props.shown.map((c) => c.key);
  const ref = useDismissableDetails();
  return (
    <details class="column-picker" ref={ref}>
      <summary class="button">
        <Icon name="columns" /> {t('columns.button')}
      </summary>
      <fieldset class="menu-panel">
        <legend class="visually-hidden">{t('columns.legend')}</legend>
        {props.choices.map((col) => (
          <label key={col.key} class="check">
            <input
              type="checkbox"
              checked={shownKeys.includes(col.key)}
              onChange={(e) =>
                props.onChange(
                  e.currentTarget.checked ? [...shownKeys, col.key] : shownKeys.filter((k) => k !== col.key),
                )
              }
            />
            {col.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
