/**
 * Text parts of an upload form → field values. Parts are strings, so values are read by the field's
 * type (numbers, checkboxes, ids, JSON for structured fields); a `_payload` part may carry every field
 * as one JSON object, as Payload's clients send it. Validation happens in the operation as for JSON.
 */
import type { SanitizedField } from '../config/types.ts';
import { badRequest } from '../errors.ts';
import { checkJSONNesting } from '../fields/json-nesting.ts';
import { kindOf } from '../fields/kinds/index.ts';
import { formJSON } from '../fields/kinds/kind.ts';

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

/** A list or a per-locale record is JSON whatever the field; else the field's kind reads the part. */
function readPart(field: SanitizedField, text: string): unknown {
  if (field.hasMany || field.localized) return formJSON(field, text);
  return kindOf(field).fromForm(field, text);
}
