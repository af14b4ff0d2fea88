/** `point` fields: `[longitude, latitude]`, numbers in range. */

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
