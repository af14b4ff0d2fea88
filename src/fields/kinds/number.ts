/** `number`: a finite number within `min` and `max`; text that reads as a number is taken as one. */
import { formScalar, invalid, noNested, valid, type Kind } from './kind.ts';

export const number: Kind = {
  holds: 'value',
  check(field, raw, kit) {
    const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
    if (typeof n !== 'number' || !Number.isFinite(n)) return invalid(raw, kit, 'This field must be a number.');
    if (field.min !== undefined && n < field.min) return invalid(raw, kit, `This value must be at least ${field.min}.`);
    if (field.max !== undefined && n > field.max) return invalid(raw, kit, `This value must be at most ${field.max}.`);
    return valid(n);
  },
  schema: (field, kit) => ({
    type: 'number',
    ...(kit.strict && field.min !== undefined ? { minimum: field.min } : {}),
    ...(kit.strict && field.max !== undefined ? { maximum: field.max } : {}),
  }),
  describe: () => 'A number.',
  graphQL: { scalar: 'Float', operators: ['equality', 'comparison', 'lists'] },
  whereAs: 'number',
  tsType: () => 'number',
  fromForm: formScalar((text) => (Number.isFinite(Number(text)) ? Number(text) : text)),
  nested: noNested,
};
