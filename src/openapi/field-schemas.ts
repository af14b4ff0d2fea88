/**
 * JSON Schema (2020-12, as OpenAPI 3.1 uses it) for a collection's or global's fields, in the two shapes
 * the API speaks: what a reader gets (ids or populated documents by `depth`, a value or a per-locale
 * record by `locale`, null where unset) and what a writer sends (ids, one locale's value).
 */
import { labelText } from '../config/label-text.ts';
import type { SanitizedConfig, SanitizedField } from '../config/types.ts';
import { schemaName } from './names.ts';

export type Schema = Record<string, unknown>;

const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

const RICH_TEXT: Schema = {
  type: 'object',
  required: ['root'],
  properties: {
    root: {
      type: 'object',
      required: ['type', 'children'],
      properties: {
        type: { const: 'root' },
        children: {
          type: 'array',
          items: {
            type: 'object',
            required: ['type'],
            properties: { type: { type: 'string' }, version: { type: 'integer' } },
          },
        },
        direction: { anyOf: [{ enum: ['ltr', 'rtl'] }, { type: 'null' }] },
        format: { type: 'string' },
        indent: { type: 'integer' },
        version: { type: 'integer' },
      },
    },
  },
};

function scalar(field: SanitizedField, mode: 'read' | 'write'): Schema {
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'markdown':
      return { type: 'string' };
    // Reads return what was stored; only writes are checked as addresses and times.
    case 'email':
      return mode === 'write' ? { type: 'string', format: 'email' } : { type: 'string' };
    case 'date':
      return mode === 'write' ? { type: 'string', format: 'date-time' } : { type: 'string' };
    case 'number':
      return { type: 'number' };
    case 'checkbox':
      return { type: 'boolean' };
    case 'json':
      return {};
    case 'select':
    case 'radio':
      return { type: 'string', enum: (field.options ?? []).map((o) => o.value) };
    case 'code':
      return { type: 'string' };
    // Lexical JSON (docs/rich-text.md); a string when read with `richText=html|markdown|text`, and writes may send Markdown.
    case 'richText':
      return { anyOf: [RICH_TEXT, { type: 'string' }] };
    case 'point':
      return {
        type: 'array',
        prefixItems: [
          { type: 'number', minimum: -180, maximum: 180 },
          { type: 'number', minimum: -90, maximum: 90 },
        ],
        minItems: 2,
        maxItems: 2,
      };
    case 'blocks':
      return {
        type: 'array',
        items: {
          oneOf: (field.blocks ?? []).map((block) => objectOf(block.fields, mode, blockRowKeys(block.slug, mode))),
        },
        ...(field.minRows !== undefined ? { minItems: field.minRows } : {}),
        ...(field.maxRows !== undefined ? { maxItems: field.maxRows } : {}),
      };
    // Layout fields never appear in stored field lists.
    case 'tabs':
    case 'row':
    case 'collapsible':
      return {};
    case 'relationship':
    case 'upload': {
      const id = { type: 'integer', minimum: 1 };
      // `depth` 0 gives ids, above it the related document, or null where the reader may not read it.
      const ref = (slug: string) =>
        mode === 'write' ? id : { anyOf: [id, { $ref: `#/components/schemas/${schemaName(slug)}` }, { type: 'null' }] };
      if (!Array.isArray(field.relationTo)) return ref(field.relationTo!);
      return {
        oneOf: field.relationTo.map((slug) => ({
          type: 'object',
          required: ['relationTo', 'value'],
          properties: { relationTo: { const: slug }, value: ref(slug) },
        })),
      };
    }
    case 'join': {
      const item = {
        anyOf: [{ type: 'integer', minimum: 1 }, { $ref: `#/components/schemas/${schemaName(field.collection!)}` }],
      };
      return {
        type: 'object',
        readOnly: true,
        properties: {
          docs: { type: 'array', items: item },
          hasNextPage: { type: 'boolean' },
          totalDocs: { type: 'integer' },
        },
      };
    }
    case 'array':
      return { type: 'array', items: objectOf(field.fields ?? [], mode, { id: { type: 'string' } }) };
    case 'group':
      return objectOf(field.fields ?? [], mode);
  }
}

/** `blockType` names the row's block; writes may leave `id` out (one is generated). */
function blockRowKeys(slug: string, mode: 'read' | 'write'): Record<string, Schema> {
  return {
    id: { type: 'string' },
    blockType: { const: slug },
    blockName: mode === 'read' ? nullable({ type: 'string' }) : { type: 'string' },
  };
}

function valueSchema(field: SanitizedField, mode: 'read' | 'write', locales: string[] | null): Schema {
  const one = scalar(field, mode);
  const many =
    field.hasMany && (field.type === 'select' || field.type === 'relationship' || field.type === 'upload')
      ? { type: 'array', items: one }
      : one;
  const value = mode === 'read' ? nullable(many) : many;
  if (!field.localized || !locales || mode === 'write') return value;
  // `locale=all` answers every locale's value keyed by its code.
  return { anyOf: [value, { type: 'object', propertyNames: { enum: locales }, additionalProperties: value }] };
}

/** The object of `fields`; on writes `required` lists the required fields that have no default. */
export function objectOf(
  fields: SanitizedField[],
  mode: 'read' | 'write',
  extra: Record<string, Schema> = {},
  locales: string[] | null = null,
): Schema {
  const properties: Record<string, Schema> = { ...extra };
  for (const field of fields) {
    if (field.hidden || (field.type === 'join' && mode === 'write')) continue;
    const schema = valueSchema(field, mode, locales);
    properties[field.name] = field.label ? { ...schema, title: labelText(field.label) } : schema;
  }
  const required =
    mode === 'write'
      ? fields.filter((f) => f.required && !f.hidden && f.defaultValue === undefined).map((f) => f.name)
      : [];
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

export function localesOf(config: SanitizedConfig): string[] | null {
  return config.localization?.locales ?? null;
}
