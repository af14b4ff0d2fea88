/**
 * The block and inline block nodes of a rich text value, with the field's block each one is. Readers that
 * treat a block's fields like a blocks field's rows (hidden and denied fields left out of reads and webhook
 * bodies) change a copy: `copyWithBlocks` clones the tree and hands back the copy's block nodes to edit.
 */
import type { SanitizedBlock, SanitizedField } from '../config/types.ts';
import { isObject, isRichTextValue, type LexicalNode, type RichTextValue } from './nodes.ts';

export type BlockNode = { node: LexicalNode & { fields: Record<string, unknown> }; block: SanitizedBlock };

function copyNode(node: LexicalNode, field: SanitizedField, found: BlockNode[]): LexicalNode {
  const out: LexicalNode = { ...node };
  if (Array.isArray(node.children))
    out.children = node.children.map((child) =>
      isObject(child) ? copyNode(child as LexicalNode, field, found) : child,
    );
  if ((node.type === 'block' || node.type === 'inlineBlock') && isObject(node.fields)) {
    const block =
      typeof node.fields.blockType === 'string' ? field.richTextBlocksBySlug?.get(node.fields.blockType) : undefined;
    out.fields = { ...node.fields };
    if (block) found.push({ node: out as BlockNode['node'], block });
  }
  return out;
}

/** A copy of `value` and its block nodes (in document order), or null when it is not a rich text value. */
export function copyWithBlocks(
  field: SanitizedField,
  value: unknown,
): { value: RichTextValue; blocks: BlockNode[] } | null {
  if (!isRichTextValue(value)) return null;
  const blocks: BlockNode[] = [];
  return { value: { ...value, root: copyNode(value.root, field, blocks) as RichTextValue['root'] }, blocks };
}
