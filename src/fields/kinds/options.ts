/** What `select` and `radio` share: values from the field's options. */
import type { SanitizedField } from '../../config/types.ts';
import { formScalar, invalid, literal, noNested, valid, type Kind } from './kind.ts';

const values = (field: SanitizedField) => (field.options ?? []).map((o) => o.value);

/** The options as a TypeScript union (`string` when there are none). */
export const optionsUnion = (field: SanitizedField) => values(field).map(literal).join(' | ') || 'string';

export const optionsKind: Kind = {
  holds: 'value',
  check(field, raw, kit) {
    const allowed = new Set(values(field));
    const list = field.hasMany ? raw : [raw];
    if (!Array.isArray(list)) return invalid(raw, kit, 'This field takes a list of options.');
    for (const item of list)
      if (typeof item !== 'string' || !allowed.has(item))
        return invalid(raw, kit, `"${String(item)}" is not one of the options.`);
    return valid(raw);
  },
  schema: (field) => ({ type: 'string', enum: values(field) }),
  describe: () => 'One of the allowed values.',
  graphQL: { shape: 'radio' },
  tsType: optionsUnion,
  fromForm: formScalar(),
  nested: noNested,
};
