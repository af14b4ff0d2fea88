/**
 * The request body and its signature (docs/webhooks.md). Built once, inside the change's
 * transaction, and stored: every attempt sends these exact bytes.
 */
import { createHmac } from 'node:crypto';
import type { SanitizedConfig, SanitizedField } from '../config/types.ts';
import type { ChangeEvent } from '../events/change-events.ts';
import { blockOfRow } from '../fields/types/blocks.ts';
import { copyWithBlocks } from '../richtext/block-nodes.ts';

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `{ event, collection, id, doc, timestamp }`, or `{ event, global, doc, timestamp }` for a global. */
export function webhookBody(config: SanitizedConfig, event: ChangeEvent): string {
  const entity =
    event.collection !== undefined
      ? config.collectionsBySlug.get(event.collection)
      : config.globalsBySlug.get(event.global!);
  const doc = entity ? withoutHiddenFields(entity.fields, event.doc) : event.doc;
  if (event.collection !== undefined) {
    return JSON.stringify({
      event: event.type,
      collection: event.collection,
      id: event.id ?? doc.id ?? null,
      doc,
      timestamp: event.timestamp,
    });
  }
  return JSON.stringify({ event: event.type, global: event.global, doc, timestamp: event.timestamp });
}

/** Lowercase hex HMAC-SHA256 of the raw body, as GitHub-style verifiers expect it. */
export function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** Drops `hidden: true` fields at every level: groups, array rows, and each locale of a localized group or array. */
export function withoutHiddenFields(fields: SanitizedField[], doc: Doc): Doc {
  const out: Doc = { ...doc };
  for (const field of fields) {
    if (!(field.name in out)) continue;
    if (field.hidden) {
      delete out[field.name];
      continue;
    }
    if (!hasHidden([...(field.fields ?? []), ...blockFields(field)])) continue;
    const strip = (value: unknown) => stripChildren(field, value);
    const value = out[field.name];
    out[field.name] = field.localized && isObject(value) ? mapValues(value, strip) : strip(value);
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

function hasHidden(fields: SanitizedField[]): boolean {
  return fields.some((f) => f.hidden || (f.fields !== undefined && hasHidden(f.fields)) || hasHidden(blockFields(f)));
}

function mapValues(value: Doc, fn: (v: unknown) => unknown): Doc {
  const out: Doc = {};
  for (const [key, v] of Object.entries(value)) out[key] = fn(v);
  return out;
}
