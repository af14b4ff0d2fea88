/**
 * What the HTML and Markdown readers (from-html.ts, from-markdown.ts) share: the options and results of a
 * conversion, node builders in the shape Payload stores, the count of what had no node, and a "flow" that
 * gathers inline nodes into paragraphs and lets a node that must stand at the top (an image, a rule) end
 * the paragraph it was written in. docs/rich-text.md ("HTML and Markdown in") lists what maps to what.
 */
import type { LexicalNode, RichTextValue } from './nodes.ts';
import { safeURL } from './to-html.ts';

/** Every link and image a text points at (each once, in the order written). */
export type RichTextRefs = { links: string[]; images: { src: string; alt: string }[] };
/** What had no node of its own, and how often: its text was kept where it had any. */
export type Lossy = { what: string; count: number }[];
export type DocRef = { relationTo: string; value: string | number };
export type ConvertOptions = {
  /** An href that points at an imported document: its internal link target, else null (an external link). */
  linkTarget?(href: string): DocRef | null;
  /** An image's media document, else null (the image is then kept as a link to its src, and counted lossy). */
  imageTarget?(src: string, alt: string): DocRef | null;
  /**
   * HTML only: read line ends as WordPress's classic editor stores them (a blank line ends a paragraph, a
   * single line end is a line break). Default: on for HTML without Gutenberg block comments; pass false
   * for HTML from elsewhere (a web page, a paste), where line ends are spaces.
   */
  autoParagraphs?: boolean;
  /**
   * Markdown only: read MDX, where a top-level paragraph starting with `import` or `export` is module code
   * (dropped, counted). Default true; false keeps such paragraphs as text (Markdown written to the API).
   */
  mdx?: boolean;
};
export type Converted = { value: RichTextValue; lossy: Lossy };

export const element = (type: string, children: LexicalNode[], extra: Record<string, unknown> = {}): LexicalNode => ({
  type,
  children,
  direction: null,
  format: '',
  indent: 0,
  version: 1,
  ...extra,
});
export const textNode = (value: string, format = 0): LexicalNode => ({
  type: 'text',
  text: value,
  format,
  style: '',
  mode: 'normal',
  detail: 0,
  version: 1,
});
export const paragraphNode = (children: LexicalNode[]) => element('paragraph', children, { textFormat: 0 });
export const linebreakNode = (): LexicalNode => ({ type: 'linebreak', version: 1 });
export const ruleNode = (): LexicalNode => ({ type: 'horizontalrule', version: 1 });
export const rootValue = (children: LexicalNode[]): RichTextValue => ({
  root: { ...element('root', children.map(tidy)), type: 'root' },
});

/** Neighbouring text nodes of one format become one, as Lexical keeps them. */
function tidy(node: LexicalNode): LexicalNode {
  if (!node.children) return node;
  const children: LexicalNode[] = [];
  for (const child of node.children) {
    const last = children[children.length - 1];
    if (child.type === 'text' && last?.type === 'text' && last.format === child.format)
      children[children.length - 1] = { ...last, text: `${last.text}${child.text}` };
    else children.push(tidy(child));
  }
  return { ...node, children };
}

/** One conversion's state: the caller's options, the losses counted, and the nodes waiting to be placed. */
export type Session = { options: ConvertOptions; lossy: Map<string, number>; refs?: RichTextRefs };

export function session(options: ConvertOptions = {}): Session {
  return { options, lossy: new Map() };
}

export function lose(s: Session, what: string, count = 1): void {
  s.lossy.set(what, (s.lossy.get(what) ?? 0) + count);
}

export function lossyOf(s: Session): Lossy {
  return [...s.lossy].map(([what, count]) => ({ what, count }));
}

/**
 * Whether a link to `href` may be stored: the forms the HTML output renders (http, https, mailto, tel,
 * relative, fragments). Others (`javascript:`, `data:`) keep their text and lose the link, counted.
 */
export const isSafeHref = (href: string) => safeURL(href) !== '#' || href.trim() === '#';

/** Whether an address names an image file (a link around an image to its own file loses nothing). */
export const isImageFile = (href: string) => /\.(jpe?g|png|gif|webp|avif|svg|bmp|tiff?)$/i.test(href.split(/[?#]/)[0]);

/** A link to `href`: internal when it points at an imported document. */
export function linkNode(s: Session, href: string, children: LexicalNode[], newTab = false): LexicalNode {
  const doc = s.options.linkTarget?.(href) ?? null;
  const fields = doc ? { linkType: 'internal', newTab, doc } : { linkType: 'custom', url: href, newTab };
  return element('link', children, { version: 3, fields });
}

/**
 * An image: an upload node when it has a media document (it then stands at the top of the text), else a
 * link to its file with the alt text (or the file's address) as the link's text, counted as a loss.
 */
export function imageNode(s: Session, src: string, alt: string, format = 0): { block: boolean; node: LexicalNode } {
  const doc = s.options.imageTarget?.(src, alt) ?? null;
  if (doc)
    return {
      block: true,
      node: {
        type: 'upload',
        relationTo: doc.relationTo,
        value: doc.value,
        fields: alt ? { alt } : null,
        format: '',
        version: 3,
      },
    };
  lose(s, 'image without a media document');
  if (!isSafeHref(src)) return { block: false, node: textNode(alt, format) };
  return {
    block: false,
    node: element('link', [textNode(alt || src, format)], {
      version: 3,
      fields: { linkType: 'custom', url: src, newTab: false },
    }),
  };
}

/** Adds each link and image once, in the order first seen. */
export function addRef(refs: RichTextRefs, kind: 'link' | 'image', src: string, alt = ''): void {
  if (!src) return;
  if (kind === 'link') {
    if (!refs.links.includes(src)) refs.links.push(src);
  } else if (!refs.images.some((image) => image.src === src && image.alt === alt)) refs.images.push({ src, alt });
}

/**
 * Inline nodes on their way into blocks. `line` collects the current paragraph's inline nodes; `space`
 * says the text so far ends in white space (or nothing was written yet), so HTML's collapsed spaces are
 * not doubled. A flow at the top places blocks itself; a flow inside a list item, quote or heading hands
 * them to `outer`, which places them after the block it is in (they have no place inside it).
 */
export type Flow = { blocks: LexicalNode[]; line: LexicalNode[]; space: boolean; outer: LexicalNode[] | null };

export const flow = (outer: LexicalNode[] | null = null): Flow => ({ blocks: [], line: [], space: true, outer });

/** Text continuing the previous node with the same format joins it, as Lexical stores it. */
export function pushText(into: LexicalNode[], value: string, format: number): void {
  if (!value) return;
  const last = into[into.length - 1];
  if (last?.type === 'text' && last.format === format) last.text = `${last.text}${value}`;
  else into.push(textNode(value, format));
}

/**
 * Ends the current paragraph, if it holds anything, trimming white space and line breaks at its ends
 * (`'breaks'`: only line breaks, for preformatted text; false: nothing).
 */
export function endParagraph(f: Flow, trim: boolean | 'breaks' = true): void {
  const line = trim === 'breaks' ? trimBreaks(f.line) : trim ? trimLine(f.line) : f.line;
  // A paragraph of white space alone (between two images, say) is no paragraph.
  if (line.some((node) => !isBlank(node))) f.blocks.push(paragraphNode(line));
  f.line = [];
  f.space = true;
}

/**
 * A node that stands at the top of the text (a rule, an upload, a list): it ends the current paragraph.
 * Inside a list item, quote or heading, a heading or quote becomes a paragraph of its text, a list stays
 * (a nested list), and anything else is handed to `outer`.
 */
export function placeBlock(f: Flow, node: LexicalNode, trim = true): void {
  endParagraph(f, trim);
  if (!f.outer || node.type === 'paragraph' || node.type === 'list') f.blocks.push(node);
  else if (node.type === 'heading' || node.type === 'quote') f.blocks.push(paragraphNode(node.children ?? []));
  else f.outer.push(node);
}

function trimLine(nodes: LexicalNode[]): LexicalNode[] {
  const out = [...nodes];
  while (out.length && isBlank(out[0])) out.shift();
  while (out.length && isBlank(out[out.length - 1])) out.pop();
  const first = out[0];
  if (first?.type === 'text') out[0] = { ...first, text: String(first.text).trimStart() };
  const last = out[out.length - 1];
  if (last?.type === 'text') out[out.length - 1] = { ...last, text: String(last.text).trimEnd() };
  else if (last?.type === 'link' && last.children?.length) {
    const inner = last.children[last.children.length - 1];
    if (inner.type === 'text') inner.text = String(inner.text).trimEnd();
  }
  return out.filter((node) => node.type !== 'text' || node.text !== '');
}

function trimBreaks(nodes: LexicalNode[]): LexicalNode[] {
  let start = 0;
  let end = nodes.length;
  while (start < end && nodes[start].type === 'linebreak') start++;
  while (end > start && nodes[end - 1].type === 'linebreak') end--;
  return nodes.slice(start, end);
}

const isBlank = (node: LexicalNode) =>
  node.type === 'linebreak' || (node.type === 'text' && String(node.text).trim() === '');

/** Joins the inline content of several blocks into one, a line break between each. */
export function joinLines(lines: LexicalNode[][]): LexicalNode[] {
  return lines.filter((line) => line.length).flatMap((line, i) => (i === 0 ? line : [linebreakNode(), ...line]));
}

/** A list as lines of its items' text, a number or bullet before each (where only text may stand). */
export function listAsLines(list: LexicalNode): LexicalNode[][] {
  const lines: LexicalNode[][] = [];
  for (const item of list.children ?? []) {
    const own = (item.children ?? []).filter((c) => c.type !== 'list');
    if (own.length) lines.push([textNode(list.listType === 'number' ? `${item.value}. ` : '• '), ...own]);
    for (const sub of (item.children ?? []).filter((c) => c.type === 'list')) lines.push(...listAsLines(sub));
  }
  return lines;
}

export type ListItemParts = { inline: LexicalNode[]; nested: LexicalNode[]; checked?: boolean };

/**
 * Lists nest at most this deep: a stored value nests at most 40 nodes deep, and each level of a list takes
 * two (the list and its item). The items of lists nested deeper join the deepest list.
 */
export const MAX_LIST_DEPTH = 15;

/**
 * A list as Lexical stores it: an item's nested list sits in an item of its own right after it (which takes
 * no number), and items carry their depth as `indent`.
 */
export function listNode(
  listType: 'bullet' | 'number' | 'check',
  start: number,
  items: ListItemParts[],
  depth: number,
): LexicalNode {
  const children: LexicalNode[] = [];
  let value = listType === 'number' ? start : 1;
  if (depth >= MAX_LIST_DEPTH)
    items = items.flatMap((item) => [
      ...(item.inline.length ? [{ ...item, nested: [] }] : []),
      // The nested lists were built as deep, so they are flat already: their items join this list.
      ...item.nested.flatMap((list) => (list.children ?? []).map((li) => ({ inline: li.children ?? [], nested: [] }))),
    ]);
  for (const item of items) {
    if (item.inline.length || !item.nested.length) {
      const extra: Record<string, unknown> = { value, indent: depth };
      if (listType === 'check') extra.checked = Boolean(item.checked);
      children.push(element('listitem', item.inline, extra));
      value++;
    }
    for (const nested of item.nested) children.push(element('listitem', [nested], { value, indent: depth }));
  }
  return element('list', children, { listType, start, tag: listType === 'number' ? 'ol' : 'ul' });
}
