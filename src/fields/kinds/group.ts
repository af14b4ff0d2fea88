/** `group`: an object of fields of its own, stored under the field's name. */
import { formJSON, invalid, isObject, type Kind } from './kind.ts';

export const group: Kind = {
  holds: 'value',
  async check(field, raw, kit) {
    if (!isObject(raw)) return invalid(raw, kit, 'This field takes an object.');
    const result = await kit.validateFields(field.fields!, raw, kit.key, kit.operation === 'create');
    return { value: { ...result.values }, errors: result.errors };
  },
  schema: (field, kit) => kit.objectOf(field.fields ?? [], 'group'),
  describe: () => 'A group of fields.',
  graphQL: { shape: 'group' },
  tsType: (field, kit) => kit.objectType(field.fields ?? []),
  fromForm: formJSON,
  nested: (field, value) => (isObject(value) ? [{ fields: field.fields!, value, at: '' }] : []),
};
