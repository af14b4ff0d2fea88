/**
 * Rich text → plain text, the way Payload's plain-text converter reads it: blocks (paragraphs, headings,
 * lists) separated by a blank line, list items by a line break; uploads, relationships and blocks add nothing.
 */
import type { LexicalNode, RichTextValue } from './nodes.ts';
import { hasText } from './to-html.ts';

export function richTextToText(value: RichTextValue): string {
  return hasText(value) ? nodesToText(value.root.children ?? []).join('') : '';
}

function nodesToText(nodes: LexicalNode[]): string[] {
  const out: string[] = [];
  for (const node of nodes) {
    if (['paragraph', 'heading', 'list'].includes(node.type)) {
      if (out.length) out.push('\n\n');
    } else if (node.type === 'listitem') {
      if (out.length) out.push('\n');
    } else if (node.type === 'linebreak') {
      out.push('\n');
    } else if (node.type === 'tab') {
      out.push('\t');
    } else if (typeof node.text === 'string' && node.text) {
      out.push(node.text);
    }
    if (Array.isArray(node.children)) out.push(...nodesToText(node.children));
  }
  return out.filter(Boolean);
}
