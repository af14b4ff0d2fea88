/** `select`: one of the field's options, or with `hasMany` a list of them. */
import { manySchema, type Kind } from './kind.ts';
import { optionsKind, optionsUnion } from './options.ts';

export const select: Kind = {
  ...optionsKind,
  schema: (field, kit) => manySchema(field, optionsKind.schema(field, kit)),
  describe: (field) => (field.hasMany ? 'A list of the allowed values.' : 'One of the allowed values.'),
  graphQL: { shape: 'select' },
  tsType: (field) => (field.hasMany ? `(${optionsUnion(field)})[]` : optionsUnion(field)),
};
