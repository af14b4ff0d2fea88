/** `checkbox`: true or false (false is a value, not an empty one). */
import { formScalar, invalid, noNested, valid, type Kind } from './kind.ts';

export const checkbox: Kind = {
  holds: 'value',
  check: (_field, raw, kit) =>
    typeof raw === 'boolean' ? valid(raw) : invalid(raw, kit, 'This field must be true or false.'),
  schema: () => ({ type: 'boolean' }),
  describe: () => 'true or false.',
  graphQL: { scalar: 'Boolean', operators: ['equality'] },
  whereAs: 'boolean',
  tsType: () => 'boolean',
  fromForm: formScalar((text) =>
    ['true', '1', 'on'].includes(text) ? true : ['false', '0', 'off'].includes(text) ? false : text,
  ),
  nested: noNested,
};
