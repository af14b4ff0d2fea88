/** Plain-data helpers for form values: defaults for new documents, what changed, what to send. */
import type { Doc, Field } from '../api.ts';
import { newRowId } from '../format.ts';

export const isReadOnly = (f: Field) => Boolean(f.admin?.readOnly);

/** Arrange fields without holding a value of their own: their fields sit at the level they are in. */
export const isLayoutField = (f: Field) => f.type === 'row' || f.type === 'collapsible' || f.type === 'tabs';

/**
 * The fields that hold values, as stored: rows, collapsibles and unnamed tabs give up their fields to the
 * level they sit in, a named tab becomes a group under its name, joins (read-only, computed) are left out.
 */
export function dataFields(fields: Field[]): Field[] {
  const out: Field[] = [];
  for (const f of fields) {
    if (f.type === 'row' || f.type === 'collapsible') out.push(...dataFields(f.fields ?? []));
    else if (f.type === 'tabs') {
      for (const tab of f.tabs ?? []) {
        if (tab.name) out.push({ name: tab.name, type: 'group', label: tab.label, fields: tab.fields });
        else out.push(...dataFields(tab.fields));
      }
    } else if (f.type !== 'join') out.push(f);
  }
  return out;
}

/** The value a new document (or array row) starts with for a field. */
export function emptyValue(f: Field): unknown {
  if (f.defaultValue !== undefined && f.defaultValue !== null) return structuredClone(f.defaultValue);
  switch (f.type) {
    case 'checkbox':
      return false;
    case 'array':
    case 'blocks':
      return [];
    case 'group':
      return emptyDoc(f.fields ?? []);
    case 'select':
    case 'relationship':
      return f.hasMany ? [] : null;
    default:
      return null;
  }
}

export function emptyDoc(fields: Field[]): Doc {
  const d: Doc = {};
  for (const f of dataFields(fields)) d[f.name] = emptyValue(f);
  return d;
}

export function newRow(fields: Field[]): Doc {
  return { id: newRowId(), ...emptyDoc(fields) };
}

/** Fills missing keys (and missing group members) so every input has a defined value to show. */
export function withDefaults(fields: Field[], doc: Doc): Doc {
  const out: Doc = { ...doc };
  for (const f of dataFields(fields)) {
    const v = out[f.name];
    if (
      v === undefined ||
      (v === null && (f.type === 'group' || f.type === 'array' || f.type === 'blocks' || f.hasMany))
    )
      out[f.name] = emptyValue(f);
    else if (f.type === 'group' && typeof v === 'object' && v) out[f.name] = withDefaults(f.fields ?? [], v as Doc);
  }
  return out;
}

/**
 * Equal as stored, whatever order each object's keys come in (the rich text editor writes its own), with
 * undefined and null alike.
 */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || a === null || b === undefined || b === null) return (a ?? null) === (b ?? null);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const list = b as unknown[];
    return a.length === list.length && a.every((x, i) => same(x, list[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]);
  for (const k of keys) if (!same(x[k], y[k])) return false;
  return true;
}

/**
 * The editable top-level fields whose value differs from `initial`: what a PATCH sends, and what a create
 * sends (against the blank form), so untouched fields get the server's defaults.
 */
export function changedFields(fields: Field[], values: Doc, initial: Doc): Doc {
  const out: Doc = {};
  for (const f of dataFields(fields))
    if (!isReadOnly(f) && !same(values[f.name], initial[f.name])) out[f.name] = values[f.name];
  return out;
}

export function isDirty(fields: Field[], values: Doc, initial: Doc): boolean {
  return Object.keys(changedFields(fields, values, initial)).length > 0;
}
