/**
 * JSON Schemas of documents, generated from the sanitized config, for the MCP tools' inputs: each field's
 * type, its options, which are required, and how localized values are sent. The descriptions are written
 * for an assistant deciding what to send.
 */
import { labelText } from '../config/label-text.ts';
import type { Entity, SanitizedConfig, SanitizedField } from '../config/types.ts';
import { isUploadCollection, MEDIA_SYSTEM_FIELDS } from '../config/upload-collections.ts';

export type JSONSchema = Record<string, unknown>;

const optionValues = (field: SanitizedField) => (field.options ?? []).map((o) => (typeof o === 'string' ? o : o.value));

function valueSchema(field: SanitizedField): JSONSchema {
  const label = field.label ? `${labelText(field.label)}. ` : '';
  const described = (schema: JSONSchema, text: string): JSONSchema => ({
    ...schema,
    description: `${label}${text}`.trim(),
  });
  switch (field.type) {
    case 'number':
      return described(
        {
          type: 'number',
          ...(field.min !== undefined ? { minimum: field.min } : {}),
          ...(field.max !== undefined ? { maximum: field.max } : {}),
        },
        'A number.',
      );
    case 'checkbox':
      return described({ type: 'boolean' }, 'true or false.');
    case 'date':
      return described({ type: 'string', format: 'date-time' }, 'An ISO 8601 date-time, e.g. 2026-03-01T09:00:00Z.');
    case 'email':
      return described({ type: 'string', format: 'email' }, 'An email address.');
    case 'radio':
      return described({ type: 'string', enum: optionValues(field) }, 'One of the allowed values.');
    case 'code':
      return described({ type: 'string' }, 'Source code as text.');
    case 'point':
      return described(
        { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 },
        '[longitude, latitude].',
      );
    case 'richText':
      return described(
        { anyOf: [{ type: 'string' }, { type: 'object' }] },
        'Markdown text (stored as rich text), or rich text JSON ({ root: … }).',
      );
    case 'blocks':
      return described(
        { type: 'array', items: { anyOf: (field.blocks ?? []).map(blockSchema) } },
        'A list of blocks; each row names its block in blockType.',
      );
    case 'select': {
      const one = { type: 'string', enum: optionValues(field) };
      return field.hasMany
        ? described({ type: 'array', items: one }, 'A list of the allowed values.')
        : described(one, 'One of the allowed values.');
    }
    case 'relationship':
    case 'upload':
      return referenceSchema(field, described);
    case 'json':
      return described({}, 'Any JSON value.');
    case 'markdown':
      return described({ type: 'string' }, 'Markdown text.');
    case 'textarea':
      return described({ type: 'string' }, 'Plain text, may span lines.');
    case 'text':
      return described({ type: 'string' }, 'Text.');
    case 'array':
      return described({ type: 'array', items: objectSchema(field.fields ?? [], true) }, 'A list of rows.');
    case 'group':
      return described(objectSchema(field.fields ?? [], false), 'A group of fields.');
    // Never written (a join is read-only), and layout fields hold no value of their own: left out by `writable`.
    case 'join':
    case 'tabs':
    case 'row':
    case 'collapsible':
      return described({}, 'Not written.');
  }
}

/**
 * A relationship or upload: an id, or on a polymorphic one (`relationTo` a list) `{ relationTo, value }`
 * naming the collection; a list of them with `hasMany`.
 */
function referenceSchema(field: SanitizedField, described: (schema: JSONSchema, text: string) => JSONSchema) {
  const first = field.type === 'upload' ? ' (upload a file with the upload tool first)' : '';
  if (!Array.isArray(field.relationTo)) {
    const text = `The id of a document of "${field.relationTo}"${first}.`;
    return field.hasMany
      ? described({ type: 'array', items: { type: 'integer' } }, `A list of ids of "${field.relationTo}" documents.`)
      : described({ type: 'integer' }, text);
  }
  const slugs = field.relationTo;
  const one = {
    type: 'object',
    properties: {
      relationTo: { type: 'string', enum: slugs, description: 'The collection of the document.' },
      value: { type: 'integer', description: 'The id of the document in that collection.' },
    },
    required: ['relationTo', 'value'],
    additionalProperties: false,
  };
  const which = slugs.map((slug) => `"${slug}"`).join(' or ');
  return field.hasMany
    ? described({ type: 'array', items: one }, `A list of { relationTo, value }: documents of ${which}.`)
    : described(one, `{ relationTo, value }: the collection (${which}) and the id of a document in it${first}.`);
}

function blockSchema(block: NonNullable<SanitizedField['blocks']>[number]): JSONSchema {
  const rows = objectSchema(block.fields, true);
  return {
    ...rows,
    title: block.slug,
    properties: {
      blockType: { type: 'string', const: block.slug },
      blockName: { type: 'string' },
      ...(rows.properties as JSONSchema),
    },
    required: ['blockType', ...((rows.required as string[]) ?? [])],
  };
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

function writable(field: SanitizedField): boolean {
  return !field.hidden && !field.admin?.readOnly && field.type !== 'join';
}

function objectSchema(fields: SanitizedField[], requireFields: boolean, locales: string[] | null = null): JSONSchema {
  const shown = fields.filter(writable);
  const required = requireFields
    ? shown.filter((f) => f.required && f.defaultValue === undefined).map((f) => f.name)
    : [];
  return {
    type: 'object',
    properties: Object.fromEntries(shown.map((f) => [f.name, fieldSchema(f, locales)])),
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
