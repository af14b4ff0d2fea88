/**
 * `admin.condition(data, siblingData)`: whether a field is shown for the data being edited. A field it
 * hides keeps its stored value and is validated (required included) only while the condition holds.
 * The admin asks the server which fields are shown (POST /_admin/conditions/…), so a condition is
 * written once, in the config, and never shipped to the browser.
 */
import type { SanitizedField } from '../config/types.ts';
import { blockOfRow } from './kinds/block-rows.ts';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A condition that throws (it read a sibling that is not there yet) counts as shown, as a missing one does. */
export function conditionHolds(field: SanitizedField, data: Doc, siblingData: Doc): boolean {
  const condition = field.admin?.condition;
  if (typeof condition !== 'function') return true;
  try {
    return Boolean(condition(data, siblingData));
  } catch {
    return true;
  }
}

/** Every field with a condition, by path (`cta`, `links.0.url`), with whether it is shown for `data`. */
export function fieldVisibility(fields: SanitizedField[], data: Doc): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  const visit = (list: SanitizedField[], sibling: Doc, prefix: string) => {
    for (const field of list) {
      const path = prefix ? `${prefix}.${field.name}` : field.name;
      if (typeof field.admin?.condition === 'function') out[path] = conditionHolds(field, data, sibling);
      const value = sibling[field.name];
      if (field.type === 'group' && field.fields) visit(field.fields, isObject(value) ? value : {}, path);
      if ((field.type === 'array' || field.type === 'blocks') && Array.isArray(value)) {
        value.forEach((row, i) => {
          const rowFields = field.type === 'blocks' ? blockOfRow(field, row)?.fields : field.fields;
          if (rowFields) visit(rowFields, isObject(row) ? row : {}, `${path}.${i}`);
        });
      }
    }
  };
  visit(fields, data, '');
  return out;
}
