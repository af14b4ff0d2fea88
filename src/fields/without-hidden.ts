/**
 * A document without its `hidden: true` fields, at every depth: what leaves the process (webhook bodies)
 * or is kept about a write (the audit log) never holds a hidden value, however deep it sits.
 */
import type { SanitizedField } from '../config/types.ts';
import { copyWithBlocks } from '../richtext/block-nodes.ts';
import { blockOfRow } from './kinds/block-rows.ts';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Drops `hidden: true` fields at every level: groups, array and block rows, rich text blocks, and each locale of a localized value. */
export function withoutHiddenFields(fields: SanitizedField[], doc: Doc): Doc {
  const out: Doc = { ...doc };
  for (const field of fields) {
    if (!(field.name in out)) continue;
    if (field.hidden) {
      delete out[field.name];
      continue;
    }
    if (!hiddenBelow(field)) continue;
    const strip = (value: unknown) => stripChildren(field, value);
    const value = out[field.name];
    // A localized value read in one locale is the value itself; in every locale, an object keyed by locale.
    const perLocale = field.localized && isObject(value) && !(field.type === 'richText' && 'root' in value);
    out[field.name] = perLocale ? mapValues(value, strip) : strip(value);
  }
  return out;
}

function stripChildren(field: SanitizedField, value: unknown): unknown {
  if (field.type === 'group' && isObject(value)) return withoutHiddenFields(field.fields!, value);
  if (field.type === 'array' && Array.isArray(value))
    return value.map((row) => (isObject(row) ? withoutHiddenFields(field.fields!, row) : row));
  if (field.type === 'blocks' && Array.isArray(value)) {
    return value.map((row) => {
      const block = blockOfRow(field, row);
      return block && isObject(row) ? withoutHiddenFields(block.fields, row) : row;
    });
  }
  const richText = field.type === 'richText' ? copyWithBlocks(field, value) : null;
  if (richText) {
    for (const { node, block } of richText.blocks) node.fields = withoutHiddenFields(block.fields, node.fields);
    return richText.value;
  }
  return value;
}

/** The fields of a blocks field's blocks, or of the blocks a rich text field embeds. */
const blockFields = (field: SanitizedField) =>
  [...(field.blocks ?? []), ...(field.richTextBlocks ?? [])].flatMap((b) => b.fields);

/** Whether a field holds a hidden field at any depth, answered once per field (the config is sanitized once). */
const hiddenBelowByField = new WeakMap<SanitizedField, boolean>();
function hiddenBelow(field: SanitizedField): boolean {
  let answer = hiddenBelowByField.get(field);
  if (answer === undefined) {
    answer = hasHidden([...(field.fields ?? []), ...blockFields(field)]);
    hiddenBelowByField.set(field, answer);
  }
  return answer;
}

function hasHidden(fields: SanitizedField[]): boolean {
  return fields.some((f) => f.hidden || (f.fields !== undefined && hasHidden(f.fields)) || hasHidden(blockFields(f)));
}

function mapValues(value: Doc, fn: (v: unknown) => unknown): Doc {
  const out: Doc = {};
  for (const [key, v] of Object.entries(value)) out[key] = fn(v);
  return out;
}
