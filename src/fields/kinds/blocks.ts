/**
 * `blocks`: a list of rows, each of one of the field's blocks, named by `blockType`
 * (`{ id, blockType, blockName?, …the block's fields }`); the rows' helpers are in block-rows.ts.
 */
import { blockOfRow, validateBlockRows } from './block-rows.ts';
import { formJSON, invalid, isObject, oneOf, type Kind, type Schema } from './kind.ts';
import { rowBoundsError } from './rows.ts';

/** `blockType` names the row's block; writes may leave `id` out (one is generated). */
function blockRowKeys(slug: string, mode: 'read' | 'write'): Record<string, Schema> {
  return {
    id: { type: 'string' },
    blockType: { const: slug },
    blockName: mode === 'read' ? { anyOf: [{ type: 'string' }, { type: 'null' }] } : { type: 'string' },
  };
}

export const blocks: Kind = {
  holds: 'value',
  async check(field, raw, kit) {
    if (!Array.isArray(raw)) return invalid(raw, kit, 'This field takes a list of blocks.');
    const bounds = rowBoundsError(field, raw, kit.key, !kit.draft);
    if (bounds) return invalid(raw, kit, bounds);
    return validateBlockRows(field, raw, kit.key, (fields, row, at) => kit.validateFields(fields, row, at, true));
  },
  schema: (field, kit) => ({
    type: 'array',
    items: oneOf(
      kit,
      (field.blocks ?? []).map((block) => {
        const row = kit.objectOf(
          block.fields,
          'row',
          blockRowKeys(block.slug, kit.mode),
          kit.strict ? ['blockType'] : [],
        );
        return kit.strict ? { title: block.slug, ...row } : row;
      }),
    ),
    ...(field.minRows !== undefined ? { minItems: field.minRows } : {}),
    ...(field.maxRows !== undefined ? { maxItems: field.maxRows } : {}),
  }),
  describe: () => 'A list of blocks; each row names its block in blockType.',
  graphQL: { shape: 'blocks' },
  tsType: (field, kit) => `(${(field.blocks ?? []).map((block) => kit.blockType(block)).join(' | ')})[]`,
  fromForm: formJSON,
  nested: (field, value) =>
    Array.isArray(value)
      ? value.flatMap((row, i) => {
          const fields = blockOfRow(field, row)?.fields;
          return fields && isObject(row) ? [{ fields, value: row, at: String(i) }] : [];
        })
      : [],
};
