/**
 * Parsed HTML as the rich text reader walks it: plain nodes, whichever parser made them. On the server
 * htmlparser2's nodes already have this shape (from-html.ts); in the admin the browser's own parser builds
 * the document and it is copied into it, so the reader (from-html-tree.ts) is the same code on both sides.
 */

export type HtmlText = { type: 'text'; data: string };
export type HtmlComment = { type: 'comment'; data: string };
export type HtmlElement = { type: string; name: string; attribs: Record<string, string>; children: HtmlNode[] };
/** A node that only holds others (a document, a CDATA section). */
export type HtmlParent = { type: string; children: HtmlNode[] };
export type HtmlNode = HtmlText | HtmlComment | HtmlElement | HtmlParent | { type: string };

export const isElement = (node: HtmlNode): node is HtmlElement => 'attribs' in node;
export const isText = (node: HtmlNode): node is HtmlText => node.type === 'text';
export const childrenOf = (node: HtmlNode): HtmlNode[] => ('children' in node ? node.children : []);

/** Every element under `nodes` that `test` accepts, in document order (walked without recursion). */
export function findAll(test: (el: HtmlElement) => boolean, nodes: HtmlNode[]): HtmlElement[] {
  const found: HtmlElement[] = [];
  someNode((node) => {
    if (isElement(node) && test(node)) found.push(node);
    return false;
  }, nodes);
  return found;
}

/** The first element under `nodes` that `test` accepts, or null. */
export function findOne(test: (el: HtmlElement) => boolean, nodes: HtmlNode[]): HtmlElement | null {
  let found: HtmlElement | null = null;
  someNode((node) => isElement(node) && test(node) && ((found = node), true), nodes);
  return found;
}

/**
 * Whether any node under `nodes` (elements, text, comments) passes `test`, asked in document order until
 * one does. Walked without recursion, so no input can exhaust the stack.
 */
export function someNode(test: (node: HtmlNode) => boolean, nodes: HtmlNode[]): boolean {
  const stack = [...nodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (test(node)) return true;
    const children = childrenOf(node);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return false;
}
