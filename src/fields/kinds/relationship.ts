/**
 * `relationship`: an id of a document of `relationTo`, or with several collections (polymorphic)
 * `{ relationTo, value }`; a list of them with `hasMany`. Reads give the id at depth 0 and the document
 * when populated (null where the reader may not read it); writes take ids.
 */
import type { SanitizedField } from '../../config/types.ts';
import { parseRelationValue } from '../relationship-values.ts';
import {
  formScalar,
  literal,
  manySchema,
  noNested,
  oneOf,
  valid,
  type Kind,
  type Schema,
  type SchemaKit,
} from './kind.ts';

const ID: Schema = { type: 'integer', minimum: 1 };

function schema(field: SanitizedField, kit: SchemaKit): Schema {
  const ref = (slug: string) => (kit.mode === 'write' ? ID : { anyOf: [ID, kit.document(slug), { type: 'null' }] });
  if (!Array.isArray(field.relationTo)) return manySchema(field, ref(field.relationTo!));
  return manySchema(
    field,
    oneOf(
      kit,
      field.relationTo.map((slug) => ({
        type: 'object',
        required: ['relationTo', 'value'],
        properties: { relationTo: { const: slug }, value: ref(slug) },
        ...(kit.strict ? { additionalProperties: false } : {}),
      })),
    ),
  );
}

/** What to send; `first` is said after a single reference (an upload's hint). */
export function describeReference(field: SanitizedField, first = ''): string {
  if (!Array.isArray(field.relationTo))
    return field.hasMany
      ? `A list of ids of "${field.relationTo}" documents.`
      : `The id of a document of "${field.relationTo}"${first}.`;
  const which = field.relationTo.map((slug) => `"${slug}"`).join(' or ');
  return field.hasMany
    ? `A list of { relationTo, value }: documents of ${which}.`
    : `{ relationTo, value }: the collection (${which}) and the id of a document in it${first}.`;
}

export const relationship: Kind = {
  holds: 'value',
  check(field, raw, kit) {
    const parsed = parseRelationValue(field, raw);
    if ('error' in parsed)
      return {
        value: raw,
        errors: [{ field: parsed.at ? `${kit.key}.${parsed.at}` : kit.key, message: parsed.error }],
      };
    return valid(parsed.value);
  },
  schema,
  describe: (field) => describeReference(field),
  graphQL: { shape: 'relationship' },
  whereAs: 'id',
  tsType(field, kit) {
    const ref = (slug: string) => (kit.variant === 'data' ? 'number' : `number | ${kit.nameOf(slug)}`);
    // Polymorphic: a union discriminated by the collection it points at.
    const one = Array.isArray(field.relationTo)
      ? field.relationTo.map((slug) => `{ relationTo: ${literal(slug)}; value: ${ref(slug)} }`).join(' | ')
      : ref(field.relationTo!);
    return field.hasMany ? `(${one})[]` : one;
  },
  fromForm: formScalar((text) => (/^\d+$/.test(text) ? Number(text) : text)),
  nested: noNested,
};
