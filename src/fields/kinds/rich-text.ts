/**
 * `richText`: Lexical JSON checked node by node (docs/rich-text.md), or Markdown sent in its place and
 * stored as the same content; embedded blocks are checked like a blocks field's rows. Reads may ask for
 * HTML, Markdown or text instead (a string then).
 */
import { hasContent } from '../../richtext/nodes.ts';
import { validateRichText } from '../../richtext/validate-richtext.ts';
import { validateBlockRow } from './block-rows.ts';
import { formJSON, invalid, noNested, type Kind, type Schema } from './kind.ts';

const RICH_TEXT: Schema = {
  type: 'object',
  required: ['root'],
  properties: {
    root: {
      type: 'object',
      required: ['type', 'children'],
      properties: {
        type: { const: 'root' },
        children: {
          type: 'array',
          items: {
            type: 'object',
            required: ['type'],
            properties: { type: { type: 'string' }, version: { type: 'integer' } },
          },
        },
        direction: { anyOf: [{ enum: ['ltr', 'rtl'] }, { type: 'null' }] },
        format: { type: 'string' },
        indent: { type: 'integer' },
        version: { type: 'integer' },
      },
    },
  },
};

/** Payload's own generated type for Lexical values. */
const RICH_TEXT_TYPE =
  '{ root: { type: string; children: { type: string; version: number; [k: string]: unknown }[]; direction: ("ltr" | "rtl") | null; format: "left" | "start" | "center" | "right" | "end" | "justify" | ""; indent: number; version: number }; [k: string]: unknown }';

export const richText: Kind = {
  holds: 'value',
  sizeLimit: { bytes: 1_048_576 },
  async check(field, raw, kit) {
    const result = await validateRichText(field, raw, kit.key, (row, at) =>
      validateBlockRow(field.richTextBlocks ?? [], field.richTextBlocksBySlug ?? new Map(), row, at, (fields, r, a) =>
        kit.validateFields(fields, r, a, true),
      ),
    );
    if (result.errors.length === 0 && field.required && !kit.draft && !hasContent(result.value))
      return invalid(raw, kit, 'This field is required.');
    return result;
  },
  // A string where a read asks for `richText=html|markdown|text`; writes may send Markdown.
  schema: () => ({ anyOf: [RICH_TEXT, { type: 'string' }] }),
  describe: () => 'Markdown text (stored as rich text), or rich text JSON ({ root: … }).',
  graphQL: { shape: 'richText' },
  tsType: (_field, kit) => (kit.variant === 'data' ? `${RICH_TEXT_TYPE} | string` : RICH_TEXT_TYPE),
  fromForm: formJSON,
  // Blocks embedded in rich text are nodes, not fields: walk-values reaches them through the nodes.
  nested: noNested,
};
