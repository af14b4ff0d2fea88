/** `json`: any value JSON can hold. */
import { formJSON, invalid, noNested, valid, type Kind } from './kind.ts';

export const json: Kind = {
  holds: 'value',
  sizeLimit: { bytes: 1_048_576 },
  check(_field, raw, kit) {
    try {
      JSON.stringify(raw);
    } catch {
      return invalid(raw, kit, 'This field takes JSON.');
    }
    return valid(raw);
  },
  schema: () => ({}),
  describe: () => 'Any JSON value.',
  graphQL: { scalar: 'JSON', operators: ['equality', 'partial'] },
  tsType: () => 'unknown',
  fromForm: formJSON,
  nested: noNested,
};
