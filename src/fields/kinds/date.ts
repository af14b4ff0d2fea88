/** `date`: any date `Date` reads, stored as an ISO 8601 time. Reads answer what was stored. */
import { formScalar, invalid, noNested, valid, type Kind } from './kind.ts';

export const date: Kind = {
  holds: 'value',
  check(_field, raw, kit) {
    const time = typeof raw === 'string' || typeof raw === 'number' ? new Date(raw).getTime() : NaN;
    return Number.isNaN(time) ? invalid(raw, kit, 'This is not a valid date.') : valid(new Date(time).toISOString());
  },
  schema: (_field, kit) => (kit.mode === 'write' ? { type: 'string', format: 'date-time' } : { type: 'string' }),
  describe: () => 'An ISO 8601 date-time, e.g. 2026-03-01T09:00:00Z.',
  graphQL: { scalar: 'DateTime', operators: ['equality', 'comparison', 'like'] },
  whereAs: 'date',
  tsType: () => 'string',
  fromForm: formScalar(),
  nested: noNested,
};
