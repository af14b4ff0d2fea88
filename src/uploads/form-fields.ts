/**
 * Text parts of an upload form → field values. Parts are strings, so values are read by the field's
 * type (numbers, checkboxes, ids, JSON for structured fields); a `_payload` part may carry every field
 * as one JSON object, as Payload's clients send it. Validation happens in the operation as for JSON.
 */
import type { SanitizedField } from '../config/types.ts';
import { badRequest } from '../errors.ts';
import { checkJSONNesting } from '../fields/json-nesting.ts';

type Doc = Record<string, unknown>;

export function formFieldsToData(
  collection: { fieldsByName: Map<string, SanitizedField> },
  parts: Record<string, string>,
): Doc {
  const data: Doc = {};
  if ('_payload' in parts) {
    let payload: unknown;
    try {
      payload = JSON.parse(parts._payload);
    } catch {
      throw badRequest('The part "_payload" is not valid JSON.', '_payload');
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload))
      throw badRequest('The part "_payload" must be a JSON object.', '_payload');
    checkJSONNesting(payload, 'The part "_payload"', '_payload');
    Object.assign(data, payload);
  }
  for (const [name, text] of Object.entries(parts)) {
    if (name === '_payload') continue;
    const field = collection.fieldsByName.get(name);
    data[name] = field ? readPart(field, text) : text;
    checkJSONNesting(data[name], `The part "${name}"`, name);
  }
  return data;
}

function readPart(field: SanitizedField, text: string): unknown {
  const structured =
    field.hasMany || field.localized || ['json', 'array', 'group', 'blocks', 'point', 'richText'].includes(field.type);
  if (structured) return parseOr(text, text);
  if (text === '' && field.type !== 'text' && field.type !== 'textarea' && field.type !== 'markdown') return null;
  switch (field.type) {
    case 'number':
      return Number.isFinite(Number(text)) ? Number(text) : text;
    case 'checkbox':
      return ['true', '1', 'on'].includes(text) ? true : ['false', '0', 'off'].includes(text) ? false : text;
    case 'relationship':
    case 'upload':
      return /^\d+$/.test(text) ? Number(text) : text;
    default:
      return text;
  }
}

function parseOr(text: string, fallback: unknown): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}
