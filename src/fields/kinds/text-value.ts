/** What the free-text kinds (text, textarea, markdown, code) share: one string within the field's length bounds. */
import type { SanitizedField } from '../../config/types.ts';
import { invalid, valid, type Checked, type Kind, type OperatorGroup } from './kind.ts';

export function checkText(field: SanitizedField, raw: unknown, kit: { key: string }): Checked {
  if (field.hasMany) return invalid(raw, kit, 'This field does not take a list.');
  if (typeof raw !== 'string') return invalid(raw, kit, 'This field must be text.');
  if (field.minLength !== undefined && raw.length < field.minLength)
    return invalid(raw, kit, `This value must be at least ${field.minLength} characters long.`);
  if (field.maxLength !== undefined && raw.length > field.maxLength)
    return invalid(raw, kit, `This value must be at most ${field.maxLength} characters long.`);
  return valid(raw);
}

/** A kind whose value is one string, described to an assistant as `description`. */
export const textLike = (
  description: string,
  operators: OperatorGroup[],
  parts: Partial<Kind> = {},
): Omit<Kind, 'nested'> => ({
  holds: 'value',
  check: checkText,
  schema: (field, kit) => ({
    type: 'string',
    ...(kit.strict && field.minLength !== undefined ? { minLength: field.minLength } : {}),
    ...(kit.strict && field.maxLength !== undefined ? { maxLength: field.maxLength } : {}),
  }),
  describe: () => description,
  graphQL: { scalar: 'String', operators },
  tsType: () => 'string',
  // An empty part of free text is the empty string.
  fromForm: (_field, text) => text,
  ...parts,
});
