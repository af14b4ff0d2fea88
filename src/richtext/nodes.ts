/**
 * The subset of Lexical's JSON (as Payload stores it) that rich text fields hold: which node types exist,
 * where each may sit, the text format bits, and a walk over a value's nodes. docs/rich-text.md lists them.
 */

export type LexicalNode = { type: string; children?: LexicalNode[]; [key: string]: unknown };
export type RichTextValue = { root: LexicalNode & { type: 'root' } };

/** Bits of a text node's `format`. */
export const TEXT_FORMAT = {
  bold: 1,
  italic: 2,
  strikethrough: 4,
  underline: 8,
  code: 16,
  subscript: 32,
  superscript: 64,
} as const;
export const ALL_TEXT_FORMATS = 127;

/** Nodes that sit at the top of the text, one after the other. */
export const BLOCK_NODES = new Set([
  'paragraph',
  'heading',
  'list',
  'quote',
  'horizontalrule',
  'upload',
  'relationship',
  'block',
]);
/** Nodes that sit inside a paragraph, heading, quote, list item or link. */
export const INLINE_NODES = new Set(['text', 'linebreak', 'tab', 'link', 'autolink', 'inlineBlock']);

/** What may sit inside each node that holds children. */
export const CHILDREN_OF: Record<string, Set<string>> = {
  root: BLOCK_NODES,
  paragraph: INLINE_NODES,
  heading: INLINE_NODES,
  quote: INLINE_NODES,
  list: new Set(['listitem']),
  listitem: new Set([...INLINE_NODES, 'list']),
  link: new Set(['text', 'linebreak', 'tab', 'inlineBlock']),
  autolink: new Set(['text', 'linebreak', 'tab']),
};

/** The `version` Payload 3 (Lexical 0.2x–0.5x) writes for each node type; filled in when a write leaves it out. */
export const NODE_VERSIONS: Record<string, number> = {
  root: 1,
  paragraph: 1,
  heading: 1,
  text: 1,
  linebreak: 1,
  tab: 1,
  list: 1,
  listitem: 1,
  quote: 1,
  link: 3,
  autolink: 2,
  horizontalrule: 1,
  upload: 3,
  relationship: 2,
  block: 2,
  inlineBlock: 1,
};

export const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
export const LIST_TYPES: Record<string, 'ul' | 'ol'> = { bullet: 'ul', number: 'ol', check: 'ul' };
export const ELEMENT_FORMATS = new Set(['', 'left', 'start', 'center', 'right', 'end', 'justify']);

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function isRichTextValue(value: unknown): value is RichTextValue {
  return isObject(value) && isObject(value.root) && value.root.type === 'root' && Array.isArray(value.root.children);
}

/** Calls `visit` for every node under the root, parents before children, with its path below the value. */
export function visitNodes(value: RichTextValue, visit: (node: LexicalNode, path: string) => void): void {
  const pending: [LexicalNode, string][] = [[value.root, 'root']];
  while (pending.length) {
    const [node, path] = pending.pop()!;
    if (node !== value.root) visit(node, path);
    const children = Array.isArray(node.children) ? node.children : [];
    for (let i = children.length - 1; i >= 0; i--)
      if (isObject(children[i])) pending.push([children[i], `${path}.children.${i}`]);
  }
}

/** The plain text of a node and its children. */
export function textOf(node: LexicalNode): string {
  if (node.type === 'text') return String(node.text ?? '');
  if (node.type === 'tab') return '\t';
  if (node.type === 'linebreak') return '\n';
  return (node.children ?? []).map(textOf).join('');
}

/** Whether a value holds anything: some text, or a node that is content without text (an image, a rule, a block). */
export function hasContent(value: unknown): boolean {
  if (!isRichTextValue(value)) return false;
  let found = false;
  visitNodes(value, (node) => {
    if (
      (node.type === 'text' && String(node.text).trim() !== '') ||
      ['upload', 'relationship', 'block', 'inlineBlock', 'horizontalrule'].includes(node.type)
    )
      found = true;
  });
  return found;
}
