/** `join`: the documents of another collection that point at this one (docs/content-model.md); read, never written. */
import { formScalar, noNested, valid, type Kind } from './kind.ts';

export const join: Kind = {
  holds: 'read',
  check: (_field, raw) => valid(raw),
  schema: (field, kit) => ({
    type: 'object',
    readOnly: true,
    properties: {
      docs: { type: 'array', items: { anyOf: [{ type: 'integer', minimum: 1 }, kit.document(field.collection!)] } },
      hasNextPage: { type: 'boolean' },
      totalDocs: { type: 'integer' },
    },
  }),
  describe: () => 'Not written.',
  graphQL: { shape: 'join' },
  tsType: (field, kit) =>
    `{ docs?: (number | ${kit.nameOf(field.collection!)})[]; hasNextPage?: boolean; totalDocs?: number }`,
  fromForm: formScalar(),
  nested: noNested,
};
