/**
 * The list's filter: conditions ANDed together, written into the address in the API's own bracket form
 * (`where[and][0][views][gt]=3`), so the URL is the query: copy its `where…` part onto `GET /:collection`
 * and the API answers with the same documents. Parsing and writing are pure, for tests and reloads.
 */
import type { CollectionConfig, Field } from '../api.ts';
import { fieldLabel, fieldOptions } from '../format.ts';
import { dataFields } from '../form/values.ts';
import { t } from '../i18n/i18n.ts';
import type { OperatorsOfKind, WhereOperator } from '../../../src/wire/where.ts';

export interface Condition {
  field: string;
  op: string;
  value: string;
}

/** A field one can filter on: a top-level scalar or one inside a group (dot path), plus the system fields. */
export interface FilterField {
  path: string;
  label: string;
  kind: 'text' | 'number' | 'date' | 'checkbox' | 'select' | 'relation' | 'id';
  options?: { label: string; value: string }[];
  hasMany?: boolean;
  /** For relationships and uploads: the collection(s) whose documents the picker offers. */
  relationTo?: string | string[];
}

const KIND: Partial<Record<Field['type'], FilterField['kind']>> = {
  text: 'text',
  textarea: 'text',
  email: 'text',
  markdown: 'text',
  number: 'number',
  date: 'date',
  checkbox: 'checkbox',
  select: 'select',
  relationship: 'relation',
  upload: 'relation',
};

/** An operator whose label is read in the reader's language each time it is shown. */
const op = (name: WhereOperator, label: () => string) => ({
  op: name,
  get label() {
    return label();
  },
});
const symbol = (name: WhereOperator, label: string) => ({ op: name, label });
const is = () => op('equals', () => t('filter.opIs'));
const isNot = () => op('not_equals', () => t('filter.opIsNot'));
const exists = () => op('exists', () => t('filter.opExists'));
const oneOf = () => op('in', () => t('filter.opOneOf'));
const noneOf = () => op('not_in', () => t('filter.opNoneOf'));

/** What the builder offers per kind of field: operators the server knows (typed by src/wire/where.ts). */
export const OPERATORS: Record<FilterField['kind'], { op: WhereOperator; label: string }[]> = {
  text: [
    op('like', () => t('filter.opWords')),
    op('contains', () => t('filter.opContains')),
    is(),
    isNot(),
    op('not_like', () => t('filter.opNotContains')),
    exists(),
  ],
  number: [
    symbol('equals', '='),
    symbol('not_equals', '≠'),
    symbol('gt', '>'),
    symbol('gte', '≥'),
    symbol('lt', '<'),
    symbol('lte', '≤'),
    exists(),
  ],
  date: [op('gte', () => t('filter.opOnOrAfter')), op('lt', () => t('filter.opBefore')), exists()],
  checkbox: [is()],
  select: [is(), isNot(), exists()],
  relation: [is(), isNot(), oneOf(), noneOf(), exists()],
  id: [is(), oneOf(), noneOf()],
};

/** The operators whose value is a list (comma-separated in the builder); tsc names this table when one is added. */
const LIST_OPERATORS: Record<OperatorsOfKind<'list'>, true> = { in: true, not_in: true };
export const takesList = (op: string) => Object.hasOwn(LIST_OPERATORS, op);

/** What the filter builder offers for a collection, in field order, then the system fields. */
export function filterFields(c: CollectionConfig): FilterField[] {
  const out: FilterField[] = [];
  const walk = (fields: Field[], prefix: string, labelPrefix: string) => {
    for (const f of fields) {
      const label = labelPrefix + fieldLabel(f);
      if (f.type === 'group' && f.fields) walk(dataFields(f.fields), `${prefix}${f.name}.`, `${label} › `);
      const kind = KIND[f.type];
      if (kind === 'relation' && Array.isArray(f.relationTo)) {
        // A relationship to several collections is queried by its two parts: which collection, which document.
        const path = prefix + f.name;
        out.push({
          path: `${path}.relationTo`,
          label: `${label} › ${t('filter.collection')}`,
          kind: 'select',
          options: f.relationTo.map((slug) => ({ label: slug, value: slug })),
        });
        out.push({ path: `${path}.value`, label, kind, relationTo: f.relationTo, hasMany: f.hasMany });
      } else if (kind)
        out.push({
          path: prefix + f.name,
          label,
          kind,
          options: f.options ? fieldOptions(f) : undefined,
          hasMany: f.hasMany,
          relationTo: kind === 'relation' ? (f.relationTo ?? undefined) : undefined,
        });
    }
  };
  walk(dataFields(c.fields), '', '');
  if (c.drafts)
    out.push({
      path: 'status',
      label: t('common.status'),
      kind: 'select',
      options: [
        { label: t('common.draft'), value: 'draft' },
        { label: t('common.published'), value: 'published' },
      ],
    });
  out.push({ path: 'id', label: 'ID', kind: 'id' });
  out.push({ path: 'createdAt', label: t('common.created'), kind: 'date' });
  out.push({ path: 'updatedAt', label: t('common.updated'), kind: 'date' });
  return out;
}

const KEY = /^where\[and\]\[(\d+)\]\[([^\][]+)\]\[([a-z_]+)\]$/;

/** The conditions in an address's query, in their order. Other `where` shapes are not the builder's. */
export function readConditions(query: URLSearchParams): Condition[] {
  const found: [number, Condition][] = [];
  for (const [key, value] of query) {
    const m = KEY.exec(key);
    if (m) found.push([Number(m[1]), { field: m[2]!, op: m[3]!, value }]);
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, c]) => c);
}

/** The query with its conditions replaced by `conditions` (numbered afresh) and the page reset. */
export function writeConditions(query: URLSearchParams, conditions: Condition[]): URLSearchParams {
  const next = new URLSearchParams();
  for (const [k, v] of query) if (!k.startsWith('where[') && k !== 'page') next.append(k, v);
  conditions.forEach((c, i) => next.append(`where[and][${i}][${c.field}][${c.op}]`, c.value));
  return next;
}

/** The `where` the API takes for the conditions (plus the search box's `like`), or undefined for all. */
export function whereOf(
  conditions: Condition[],
  search?: { field: string; text: string },
): Record<string, unknown> | undefined {
  const and: Record<string, unknown>[] = conditions.map((c) => ({ [c.field]: { [c.op]: c.value } }));
  if (search && search.text.trim()) and.push({ [search.field]: { like: search.text.trim() } });
  return and.length ? { and } : undefined;
}

/** The value a newly chosen field or operator starts with, so every condition sent is complete. */
export function defaultValue(f: FilterField | undefined, op: string): string {
  if (op === 'exists' || f?.kind === 'checkbox') return 'true';
  if (f?.kind === 'select') return f.options?.[0]?.value ?? '';
  return '';
}
