/**
 * JSON Schemas of documents, generated from the sanitized config, for the MCP tools' inputs: each field's
 * write schema as /openapi.json documents it (one per field kind, fields/kinds/), strict, plus a
 * description written for an assistant deciding what to send; which fields are required, and how
 * localized values are sent.
 */
import { labelText } from '../config/label-text.ts';
import type { Entity, SanitizedConfig, SanitizedField } from '../config/types.ts';
import { isUploadCollection, MEDIA_SYSTEM_FIELDS } from '../config/upload-collections.ts';
import { kindOf } from '../fields/kinds/index.ts';
import type { Schema, SchemaKit } from '../fields/kinds/kind.ts';

export type JSONSchema = Schema;

/** The write schema every transport documents (fields/kinds/), strict: closed objects, the server's bounds. */
const STRICT_WRITE: SchemaKit = {
  mode: 'write',
  strict: true,
  objectOf: (fields, role, extra, required) => objectSchema(fields, role === 'row', null, extra, required),
  // Writes take ids, never documents.
  document: () => ({}),
};

/** A field's write schema, described for an assistant deciding what to send (its label first). */
function valueSchema(field: SanitizedField): JSONSchema {
  const kind = kindOf(field);
  const label = field.label ? `${labelText(field.label)}. ` : '';
  return { ...kind.schema(field, STRICT_WRITE), description: `${label}${kind.describe(field)}`.trim() };
}

/** A localized field takes one locale's value (the `locale` argument), or with locale "all" an object keyed by locale. */
function fieldSchema(field: SanitizedField, locales: string[] | null): JSONSchema {
  const value = valueSchema(field);
  if (!field.localized || !locales) return value;
  return {
    description: `${value.description} Localized: the value for the tool's \`locale\`, or with locale "all" an object keyed by locale (${locales.join(', ')}).`,
    anyOf: [
      value,
      { type: 'object', properties: Object.fromEntries(locales.map((l) => [l, value])), additionalProperties: false },
    ],
  };
}

/** Hidden and read-only fields are not written, nor are joins (read only); layout fields are flattened away. */
function writable(field: SanitizedField): boolean {
  return !field.hidden && !field.admin?.readOnly && kindOf(field).holds === 'value';
}

/** Fields as an object closed to other keys; `extra` keys first, `alsoRequired` before the required fields. */
function objectSchema(
  fields: SanitizedField[],
  requireFields: boolean,
  locales: string[] | null = null,
  extra: Record<string, JSONSchema> = {},
  alsoRequired: string[] = [],
): JSONSchema {
  const shown = fields.filter(writable);
  const required = [
    ...alsoRequired,
    ...(requireFields ? shown.filter((f) => f.required && f.defaultValue === undefined).map((f) => f.name) : []),
  ];
  return {
    type: 'object',
    properties: { ...extra, ...Object.fromEntries(shown.map((f) => [f.name, fieldSchema(f, locales)])) },
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

/** The `data` of a create (`required` listed) or an update (every field optional) of one collection or global. */
export function dataSchema(config: SanitizedConfig, entity: Entity, operation: 'create' | 'update'): JSONSchema {
  const locales = config.localization?.locales ?? null;
  const fields = isUploadCollection(entity)
    ? entity.fields.filter((f) => !MEDIA_SYSTEM_FIELDS.has(f.name))
    : entity.fields;
  return { title: entity.slug, ...objectSchema(fields, operation === 'create', locales) };
}
