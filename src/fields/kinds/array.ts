/** `array`: a list of rows of the field's fields, each with an `id` kept across saves. */
import { formJSON, invalid, isObject, type Doc, type FieldError, type Kind } from './kind.ts';
import { rowBoundsError, rowId } from './rows.ts';

export const array: Kind = {
  holds: 'value',
  async check(field, raw, kit) {
    if (!Array.isArray(raw)) return invalid(raw, kit, 'This field takes a list.');
    const bounds = rowBoundsError(field, raw, kit.key, !kit.draft);
    if (bounds) return invalid(raw, kit, bounds);
    const errors: FieldError[] = [];
    const rows: Doc[] = [];
    for (let i = 0; i < raw.length; i++) {
      const row = raw[i];
      if (!isObject(row)) {
        errors.push({ field: `${kit.key}.${i}`, message: 'Each row must be an object.' });
        continue;
      }
      const result = await kit.validateFields(field.fields!, row, `${kit.key}.${i}`, true);
      errors.push(...result.errors);
      rows.push({ id: rowId(row), ...result.values });
    }
    return { value: rows, errors };
  },
  schema: (field, kit) => ({
    type: 'array',
    items: kit.objectOf(field.fields ?? [], 'row', { id: { type: 'string' } }),
  }),
  describe: () => 'A list of rows.',
  graphQL: { shape: 'array' },
  tsType: (field, kit) =>
    `${kit.objectType(field.fields ?? [], [kit.variant === 'data' ? 'id?: string;' : 'id: string;'])}[]`,
  fromForm: formJSON,
  nested: (field, value) =>
    Array.isArray(value)
      ? value.flatMap((row, i) => (isObject(row) ? [{ fields: field.fields!, value: row, at: String(i) }] : []))
      : [],
};
