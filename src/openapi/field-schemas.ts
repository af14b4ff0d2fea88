/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) for a collection's or global's fields, in the two shapes
 * the API speaks: what a reader gets (ids or populated documents by `depth`, a value or a per-locale
 * record by `locale`, null where unset) and what a writer sends (ids, one locale's value). Each field's
 * own schema is its kind's (fields/kinds/); the MCP tools publish the same write schema.
 */
import { labelText } from '../config/label-text.ts';
import type { SanitizedConfig, SanitizedField } from '../config/types.ts';
import { kindOf } from '../fields/kinds/index.ts';
import type { Schema, SchemaKit } from '../fields/kinds/kind.ts';
import { schemaName } from './names.ts';

export type { Schema };

const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

/** What a kind's schema needs of the document schema around it (fields/kinds/kind.ts). */
function kitOf(mode: 'read' | 'write'): SchemaKit {
  return {
    mode,
    strict: false,
    objectOf: (fields, _role, extra, required) => objectOf(fields, mode, extra, null, required),
    document: (slug) => ({ $ref: `#/components/schemas/${schemaName(slug)}` }),
  };
}

function valueSchema(field: SanitizedField, mode: 'read' | 'write', locales: string[] | null): Schema {
  const one = kindOf(field).schema(field, kitOf(mode));
  const value = mode === 'read' ? nullable(one) : one;
  if (!field.localized || !locales || mode === 'write') return value;
  // `locale=all` answers every locale's value keyed by its code.
  return { anyOf: [value, { type: 'object', propertyNames: { enum: locales }, additionalProperties: value }] };
}

/** The object of `fields`; on writes `required` lists the required fields that have no default (after `alsoRequired`). */
export function objectOf(
  fields: SanitizedField[],
  mode: 'read' | 'write',
  extra: Record<string, Schema> = {},
  locales: string[] | null = null,
  alsoRequired: string[] = [],
): Schema {
  const properties: Record<string, Schema> = { ...extra };
  for (const field of fields) {
    if (field.hidden || (kindOf(field).holds === 'read' && mode === 'write')) continue;
    const schema = valueSchema(field, mode, locales);
    properties[field.name] = field.label ? { ...schema, title: labelText(field.label) } : schema;
  }
  const required =
    mode === 'write'
      ? [
          ...alsoRequired,
          ...fields.filter((f) => f.required && !f.hidden && f.defaultValue === undefined).map((f) => f.name),
        ]
      : [];
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

export function localesOf(config: SanitizedConfig): string[] | null {
  return config.localization?.locales ?? null;
}
