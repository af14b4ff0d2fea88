/**
 * Values of relationship and upload fields. A field with one target holds an id (a list with hasMany); a
 * polymorphic field (`relationTo: ['pages', 'posts']`) holds `{ relationTo, value }` (a list with hasMany),
 * stored as JSON on both engines. `value` is an id when stored and at depth 0, the document when populated.
 */
import type { SanitizedField } from '../config/types.ts';
import { isPolymorphic } from '../config/relation-targets.ts';

type Doc = Record<string, unknown>;
export type RelationRef = { relationTo: string; id: number };
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

export function toId(value: unknown): number | null {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * Checks and normalises one write value: ids (or populated documents, as clients send back what they read)
 * become ids. Answers the stored value, or an error message with the sub-path it concerns.
 */
export function parseRelationValue(
  field: SanitizedField,
  raw: unknown,
): { value: unknown } | { error: string; at?: string } {
  const list = field.hasMany ? raw : [raw];
  if (!Array.isArray(list))
    return { error: field.hasMany ? 'This field takes a list.' : 'This field takes one value.' };
  const out: unknown[] = [];
  for (let i = 0; i < list.length; i++) {
    const at = field.hasMany ? String(i) : undefined;
    const item = list[i];
    if (isPolymorphic(field)) {
      const targets = field.relationTo as string[];
      if (!isObject(item) || typeof item.relationTo !== 'string')
        return { error: `This field takes { relationTo, value } with relationTo one of ${targets.join(', ')}.`, at };
      if (!targets.includes(item.relationTo))
        return {
          error: `"${item.relationTo}" is not one of ${targets.join(', ')}.`,
          at: at ? `${at}.relationTo` : 'relationTo',
        };
      const id = toId(isObject(item.value) ? item.value.id : item.value);
      if (id === null) return { error: 'This field takes document ids.', at: at ? `${at}.value` : 'value' };
      out.push({ relationTo: item.relationTo, value: id });
    } else {
      const id = toId(isObject(item) ? item.id : item);
      if (id === null) return { error: 'This field takes document ids.', at };
      out.push(id);
    }
  }
  return { value: field.hasMany ? out : out[0] };
}

/** One place a stored reference sits: `holder[key]` holds the id, which population replaces with the document. */
export type RelationSlot = RelationRef & { holder: Doc | unknown[]; key: string | number };

/** Told one reference: its collection and id, and where it sits (`holder[key]`). */
export type SlotVisit = (relationTo: string, id: number, holder: Doc | unknown[], key: string | number) => void;

/**
 * The references in one (single-locale, or one locale's) value of a relationship field, with where they sit,
 * in order. Told one by one, so a walk over a big document (population reads every id of a page of blocks)
 * builds no list per value; `relationSlots` collects them.
 */
export function eachRelationSlot(field: SanitizedField, holder: Doc, key: string, visit: SlotVisit): void {
  const value = holder[key];
  if (value === null || value === undefined) return;
  if (isPolymorphic(field)) {
    const items = Array.isArray(value) ? value : [value];
    for (const item of items)
      if (isObject(item) && typeof item.relationTo === 'string' && typeof item.value === 'number')
        visit(item.relationTo, item.value, item, 'value');
    return;
  }
  const relationTo = field.relationTo as string;
  if (!Array.isArray(value)) {
    if (typeof value === 'number') visit(relationTo, value, holder, key);
    return;
  }
  for (let i = 0; i < value.length; i++) {
    const id = value[i];
    if (typeof id === 'number') visit(relationTo, id, value, i);
  }
}

/** The references `eachRelationSlot` tells, as a list. */
export function relationSlots(field: SanitizedField, holder: Doc, key: string): RelationSlot[] {
  const slots: RelationSlot[] = [];
  eachRelationSlot(field, holder, key, (relationTo, id, at, k) => slots.push({ relationTo, id, holder: at, key: k }));
  return slots;
}

/** A localized relationship value under locale=all: `{ en: …, de: … }` (told apart from a polymorphic value by its keys). */
export function isLocaleMap(field: SanitizedField, value: unknown): value is Doc {
  return field.localized && isObject(value) && !(isPolymorphic(field) && 'relationTo' in value);
}
