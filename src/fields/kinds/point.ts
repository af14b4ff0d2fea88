/** `point`: `[longitude, latitude]`, numbers in range; `near` queries read it (docs/content-model.md). */
import { formJSON, invalid, noNested, valid, type Kind } from './kind.ts';

/** The point as numbers, or the message saying what is wrong with it. */
export function parsePoint(raw: unknown): { point: [number, number] } | { error: string } {
  if (!Array.isArray(raw) || raw.length !== 2)
    return { error: 'A point is a list of two numbers: [longitude, latitude].' };
  const [lng, lat] = raw.map((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v));
  if (typeof lng !== 'number' || typeof lat !== 'number' || !Number.isFinite(lng) || !Number.isFinite(lat)) {
    return { error: 'A point is a list of two numbers: [longitude, latitude].' };
  }
  if (lng < -180 || lng > 180) return { error: 'The longitude must be between -180 and 180.' };
  if (lat < -90 || lat > 90) return { error: 'The latitude must be between -90 and 90.' };
  return { point: [lng, lat] };
}

/** `[longitude, latitude]` in range, as numbers (text that reads as a number is taken as one). */
export const point: Kind = {
  holds: 'value',
  check(_field, raw, kit) {
    const parsed = parsePoint(raw);
    return 'error' in parsed ? invalid(raw, kit, parsed.error) : valid(parsed.point);
  },
  schema: (_field, kit) => ({
    type: 'array',
    ...(kit.strict ? { items: { type: 'number' } } : {}),
    prefixItems: [
      { type: 'number', minimum: -180, maximum: 180 },
      { type: 'number', minimum: -90, maximum: 90 },
    ],
    minItems: 2,
    maxItems: 2,
  }),
  describe: () => '[longitude, latitude].',
  graphQL: { scalar: 'JSON', operators: ['equality', 'near'] },
  whereAs: 'point',
  tsType: () => '[number, number]',
  fromForm: formJSON,
  nested: noNested,
};
