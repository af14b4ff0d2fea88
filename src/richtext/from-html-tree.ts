/**
 * HTML in: WordPress post content (classic or Gutenberg), pasted web pages and the raw HTML of Markdown
 * files become the stored Lexical JSON. A parser builds the tree (htmlparser2 on the server, from-html.ts;
 * the browser's own in the admin's paste); this file maps its elements onto the node subset and counts what
 * has no node (tables, galleries, embeds, columns, raw HTML, shortcodes, scripts), keeping the text of those.
 * Classic WordPress content is stored without paragraph tags, so there a blank line ends a paragraph and a
 * single line end is a line break, as WordPress itself renders it; content with block comments is read as
 * ordinary HTML. It imports nothing but its neighbours in this folder that the admin shares (no package, no
 * server code), so the admin bundles it. docs/rich-text.md ("HTML and Markdown in") lists what maps to what.
 */
import {
  addRef,
  type ConvertOptions,
  type Converted,
  element,
  endParagraph,
  type Flow,
  flow,
  imageNode,
  isImageFile,
  isSafeHref,
  joinLines,
  linebreakNode,
  linkNode,
  listAsLines,
  type ListItemParts,
  listNode,
  lose,
  lossyOf,
  placeBlock,
  pushText,
  type RichTextRefs,
  rootValue,
  ruleNode,
  type Session,
  session,
  textNode,
} from './build-nodes.ts';
import type { LexicalNode } from './nodes.ts';
import { TEXT_FORMAT } from './nodes.ts';
import {
  aligned,
  CONTAINERS,
  DROPPED,
  EMBEDS,
  FORM_PARTS,
  FORMAT_OF,
  FULLY_MAPPED,
  styledFormat,
} from './html-elements.ts';
import { findAll, findOne, type HtmlElement, type HtmlNode, isElement, someNode } from './html-tree.ts';
import { blockComment, blockLoss, closesShortcode, stripShortcodes } from './wordpress-markup.ts';

export type { ConvertOptions, Lossy, RichTextRefs } from './build-nodes.ts';

/**
 * How text is read where the walk is: its format bits, whether white space is kept, the depth of lists, and
 * how many elements deep the walk is.
 */
type Context = { format: number; pre: boolean; depth: number; level?: number };

/** Elements nested deeper than this are read as their text alone, so no input can exhaust the stack. */
const MAX_ELEMENT_DEPTH = 256;
type HtmlSession = Session & {
  /** Classic content: blank lines end paragraphs, line ends are line breaks. */
  autop: boolean;
  /** Nodes met inside a list, quote or heading that stand at the top: placed right after it. */
  pending: LexicalNode[];
  /** The whole HTML in lower case, where shortcodes look for their closing tags. */
  lowerCaseHtml: string;
};

/** The HTML reader over one parser: what the server and the admin's paste each call with their own. */
export function htmlReader(parse: (html: string) => HtmlNode[]) {
  return {
    /** Every link target and image of the HTML, each once, in document order. */
    htmlRefs(html: string): RichTextRefs {
      const refs: RichTextRefs = { links: [], images: [] };
      for (const el of findAll(() => true, parse(html))) {
        if (el.name === 'a' && el.attribs.href) addRef(refs, 'link', el.attribs.href.trim());
        if (el.name === 'img' && el.attribs.src) addRef(refs, 'image', el.attribs.src.trim(), el.attribs.alt ?? '');
      }
      return refs;
    },
    htmlToLexical(html: string, options: ConvertOptions = {}): Converted {
      const s = session(options);
      return { value: rootValue(treeBlocks(parse(html), html, s)), lossy: lossyOf(s) };
    },
    /** Whether every element of `html` maps onto a node (raw HTML in Markdown is counted only when not). */
    mapsWhole(html: string): boolean {
      return !findOne((el) => !FULLY_MAPPED.has(el.name) && !(el.name in FORMAT_OF), parse(html));
    },
    /**
     * The top-level nodes of `html`, losses counted in `outer` (also used for raw HTML inside Markdown).
     * Content without block comments is read as classic content (`classic`: blank lines end paragraphs).
     */
    htmlBlocks(html: string, outer: Session, classic = true): LexicalNode[] {
      return treeBlocks(parse(html), html, outer, classic);
    },
  };
}

function treeBlocks(nodes: HtmlNode[], html: string, outer: Session, classic = true): LexicalNode[] {
  const gutenberg = someNode((node) => node.type === 'comment' && !!blockComment(dataOf(node)), nodes);
  const autop = outer.options.autoParagraphs ?? (classic && !gutenberg);
  const s: HtmlSession = { ...outer, autop, pending: [], lowerCaseHtml: html.toLowerCase() };
  const top = flow();
  walk(nodes, top, s, { format: 0, pre: false, depth: 0 }, null);
  endParagraph(top);
  return [...top.blocks, ...s.pending].map((block) => bareLink(block, s));
}

const dataOf = (node: HtmlNode) => String((node as { data?: string }).data ?? '');

/**
 * A paragraph that is one web address alone: a link to it. Classic WordPress shows such a line as the
 * page or video it names (an embed), which has no node: counted as one.
 */
function bareLink(block: LexicalNode, s: HtmlSession): LexicalNode {
  const only = block.type === 'paragraph' && block.children?.length === 1 ? block.children[0] : null;
  if (!only || only.type !== 'text' || only.format !== 0) return block;
  const url = String(only.text);
  if (!/^https?:\/\/\S+$/.test(url) || !URL.canParse(url)) return block;
  if (s.autop) lose(s, 'embed');
  return { ...block, children: [linkNode(s, url, [only])] };
}

function walk(nodes: HtmlNode[], f: Flow, s: HtmlSession, ctx: Context, link: LexicalNode[] | null): void {
  for (const node of nodes) {
    if (node.type === 'text') addText(dataOf(node), f, s, ctx, link);
    else if (node.type === 'comment') comment(dataOf(node), f, s);
    else if (isElement(node)) elementNode(node, f, s, ctx, link);
    else if ('children' in node) walk(node.children, f, s, ctx, link);
  }
}

function comment(data: string, f: Flow, s: HtmlSession): void {
  const block = blockComment(data);
  if (block && !block.closing) {
    const loss = blockLoss(block.name);
    if (loss) lose(s, loss);
  } else if (data.trim() === 'more' || data.trim() === 'nextpage') {
    // Classic content's "read more" and page break marks: where the intro or a page ends.
    lose(s, data.trim() === 'more' ? 'more tag' : 'page break');
    endParagraph(f);
  }
}

/** Inline nodes go into the open link's children when inside one, else into the paragraph being written. */
const target = (f: Flow, link: LexicalNode[] | null) => link ?? f.line;

function addText(data: string, f: Flow, s: HtmlSession, ctx: Context, link: LexicalNode[] | null): void {
  if (ctx.pre) {
    data
      .replaceAll('\r', '')
      .split('\n')
      .forEach((line, i) => {
        if (i > 0) target(f, link).push(linebreakNode());
        pushText(target(f, link), line, ctx.format);
      });
    f.space = false;
    return;
  }
  const stripped = stripShortcodes(data, (name) => closesShortcode(s.lowerCaseHtml, name));
  for (const name of stripped.names) lose(s, `shortcode [${name}]`);
  const text = stripped.text.replaceAll('\r', '');
  if (!s.autop) return pushCollapsed(text, f, ctx, link);
  // Classic content: a blank line ends the paragraph, a single line end is a line break.
  text.split(/\n[ \t]*\n\s*/).forEach((chunk, i) => {
    if (i > 0) link ? pushCollapsed(' ', f, ctx, link) : endParagraph(f);
    const lines = chunk.split('\n');
    lines.forEach((line, j) => {
      // A line end right after a `<br>` is that line break, not another one.
      const afterBreak = target(f, link).at(-1)?.type === 'linebreak' && !lines[j - 1]?.trim();
      if (j > 0 && !afterBreak) {
        target(f, link).push(linebreakNode());
        f.space = true;
      }
      pushCollapsed(line, f, ctx, link);
    });
  });
}

/** Text with HTML's white space rule: any run of spaces, tabs and line ends shows as one space. */
function pushCollapsed(text: string, f: Flow, ctx: Context, link: LexicalNode[] | null): void {
  let value = text.replace(/[ \t\n\f]+/g, ' ');
  if (f.space && value.startsWith(' ')) value = value.slice(1);
  if (!value) return;
  pushText(target(f, link), value, ctx.format);
  f.space = value.endsWith(' ');
}

/** The text under an element, read without recursion. */
function deepText(el: HtmlElement): string {
  const parts: string[] = [];
  const stack: HtmlNode[] = [el];
  while (stack.length) {
    const node = stack.pop()!;
    if (node.type === 'text') parts.push(dataOf(node));
    else if ('children' in node) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return parts.join(' ');
}

function elementNode(el: HtmlElement, f: Flow, s: HtmlSession, outer: Context, link: LexicalNode[] | null): void {
  const name = el.name;
  const children = el.children;
  const ctx = { ...outer, level: (outer.level ?? 0) + 1 };
  if (ctx.level > MAX_ELEMENT_DEPTH) {
    lose(s, 'nesting too deep');
    return pushCollapsed(deepText(el), f, ctx, link);
  }
  const style = el.attribs.style ?? '';
  if (name in FORMAT_OF)
    return walk(children, f, s, { ...ctx, format: styledFormat(ctx.format | FORMAT_OF[name], style) }, link);
  switch (name) {
    case 'br':
      target(f, link).push(linebreakNode());
      f.space = true;
      return;
    case 'img':
      return image(el, f, s, ctx, link);
    case 'a':
      return anchor(el, f, s, ctx, link);
    case 'span':
    case 'font':
      return walk(children, f, s, { ...ctx, format: styledFormat(ctx.format, style) }, link);
    case 'q':
      pushText(target(f, link), '“', ctx.format);
      walk(children, f, s, ctx, link);
      pushText(target(f, link), '”', ctx.format);
      f.space = false;
      return;
  }
  if (DROPPED.has(name)) return;
  if (name in EMBEDS) return embed(el, f, s, ctx, link);
  if (FORM_PARTS.has(name)) {
    if (name === 'form') lose(s, 'form');
    if (name === 'select' || name === 'textarea' || name === 'input') return;
    return walk(children, f, s, ctx, link);
  }
  // Inside a link, block elements are read as inline ones: the link stays whole.
  if (link) return walk(children, f, s, ctx, link);
  if (/^h[1-6]$/.test(name)) return placeContainer(f, s, aligned(headingOf(el, s, ctx), el.attribs));
  switch (name) {
    case 'ul':
    case 'ol':
    case 'menu':
      return placeContainer(f, s, listOf(el, s, ctx));
    case 'blockquote':
      return placeContainer(f, s, quoteOf(el, s, ctx));
    case 'pre': {
      endParagraph(f);
      // A verse block keeps its line breaks but is not code.
      const code = !(el.attribs.class ?? '').includes('wp-block-verse');
      walk(children, f, s, { ...ctx, pre: true, format: code ? ctx.format | TEXT_FORMAT.code : ctx.format }, null);
      endParagraph(f, 'breaks');
      return;
    }
    case 'hr':
      return placeBlock(f, ruleNode());
    case 'table':
      lose(s, 'table');
      return table(el, f, s, ctx);
  }
  if (CONTAINERS.has(name)) {
    endParagraph(f);
    const first = f.blocks.length;
    walk(children, f, s, ctx, null);
    endParagraph(f);
    if (name === 'p') for (let i = first; i < f.blocks.length; i++) f.blocks[i] = aligned(f.blocks[i], el.attribs);
    return;
  }
  walk(children, f, s, ctx, link);
}

function image(el: HtmlElement, f: Flow, s: HtmlSession, ctx: Context, link: LexicalNode[] | null): void {
  const src = (el.attribs.src ?? '').trim();
  if (!src) return;
  const alt = el.attribs.alt ?? '';
  const made = imageNode(s, src, alt, ctx.format);
  if (made.block) return placeBlock(f, made.node);
  // A link holds no link: inside one the image is its alt text.
  if (link) pushText(link, alt, ctx.format);
  else target(f, link).push(made.node);
  f.space = false;
}

function anchor(el: HtmlElement, f: Flow, s: HtmlSession, ctx: Context, link: LexicalNode[] | null): void {
  const href = (el.attribs.href ?? '').trim();
  if (href && !link && !isSafeHref(href)) lose(s, 'unsafe link');
  if (!href || link || !isSafeHref(href)) return walk(el.children, f, s, ctx, link);
  const children: LexicalNode[] = [];
  const images = findAll((node) => node.name === 'img', el.children).length;
  walk(el.children, f, s, ctx, children);
  const kept = children.filter((node) => node.type !== 'text' || String(node.text).trim() !== '');
  if (kept.length) f.line.push(linkNode(s, href, children, el.attribs.target === '_blank'));
  // An image linked to its own file (WordPress's default) loses nothing; a link elsewhere is lost.
  else if (images && !isImageFile(href)) lose(s, 'link on an image');
}

function embed(el: HtmlElement, f: Flow, s: HtmlSession, ctx: Context, link: LexicalNode[] | null): void {
  lose(s, EMBEDS[el.name]);
  if (el.name === 'script' || el.name === 'svg' || el.name === 'math' || el.name === 'canvas') return;
  const sourceEl = findOne((node) => node.name === 'source' && !!node.attribs.src, el.children);
  const src = (el.attribs.src ?? el.attribs.data ?? sourceEl?.attribs.src ?? '').trim();
  if (!src || !isSafeHref(src)) return walk(el.children, f, s, ctx, link);
  if (link) return pushText(link, src, ctx.format);
  f.line.push(linkNode(s, src, [textNode(src, ctx.format)]));
  f.space = false;
}

/** A list, quote or heading: placed at the top, then whatever inside it could not stay there. */
function placeContainer(f: Flow, s: HtmlSession, node: LexicalNode | null): void {
  if (node) placeBlock(f, node);
  else endParagraph(f);
  if (!f.outer) f.blocks.push(...s.pending.splice(0));
}

/** Walks `content` into a flow of its own, whose top-level nodes wait in the session's `pending`. */
function inner(content: HtmlNode[], s: HtmlSession, ctx: Context): Flow {
  const f = flow(s.pending);
  walk(content, f, s, ctx, null);
  endParagraph(f);
  return f;
}

/** The inline content of a flow's blocks, one line each; a list becomes lines of its items' text. */
function linesOf(f: Flow, s: HtmlSession, where: string): LexicalNode[] {
  const lines: LexicalNode[][] = [];
  for (const block of f.blocks) {
    if (block.type === 'list') {
      lose(s, `list inside a ${where}`);
      lines.push(...listAsLines(block));
    } else lines.push(block.children ?? []);
  }
  return joinLines(lines);
}

function headingOf(el: HtmlElement, s: HtmlSession, ctx: Context): LexicalNode | null {
  const children = linesOf(inner(el.children, s, ctx), s, 'heading');
  return children.length ? element('heading', children, { tag: el.name }) : null;
}

function quoteOf(el: HtmlElement, s: HtmlSession, ctx: Context): LexicalNode | null {
  const children = linesOf(inner(el.children, s, ctx), s, 'quote');
  return children.length ? element('quote', children) : null;
}

function listOf(el: HtmlElement, s: HtmlSession, ctx: Context): LexicalNode | null {
  const depth = ctx.depth;
  const items: ListItemParts[] = [];
  let checks = 0;
  for (const child of el.children) {
    if (!isElement(child)) {
      if (child.type === 'text' && String((child as { data: string }).data).trim()) items.push(itemOf([child], s, ctx));
      continue;
    }
    const c = child as HtmlElement;
    if (c.name === 'ul' || c.name === 'ol') {
      // A list written straight inside a list belongs to the item before it.
      const nested = listOf(c, s, { ...ctx, depth: depth + 1 });
      if (!nested) continue;
      if (items.length) items[items.length - 1].nested.push(nested);
      else items.push({ inline: [], nested: [nested] });
      continue;
    }
    const item = itemOf(c.children, s, ctx);
    if (item.checked !== undefined || !item.inline.length) checks++;
    items.push(item);
  }
  if (!items.length) return null;
  // A check list when every item with text has a checkbox (items holding only a nested list have none).
  const listType =
    checks === items.length && items.some((i) => i.checked !== undefined)
      ? 'check'
      : el.name === 'ol'
        ? 'number'
        : 'bullet';
  // The first number: the list's `start`, else its first item's `value` (as Lexical's HTML writes it).
  const first = el.children.find((c): c is HtmlElement => isElement(c) && c.name === 'li');
  const start = Number.parseInt(el.attribs.start ?? first?.attribs.value ?? '', 10);
  return listNode(listType, Number.isSafeInteger(start) && start >= 0 ? start : 1, items, depth);
}

/** An item from the content of an `li` (or text written straight inside a list). */
function itemOf(content: HtmlNode[], s: HtmlSession, ctx: Context): ListItemParts {
  // A checkbox in an item makes it a check list item (task lists rendered to HTML).
  const box = findOne((n) => n.name === 'input' && n.attribs.type === 'checkbox', content);
  // Lists inside the item are one level deeper.
  const f = inner(content, s, { ...ctx, depth: ctx.depth + 1 });
  const nested = f.blocks.filter((b) => b.type === 'list');
  const inline = linesOf({ ...f, blocks: f.blocks.filter((b) => b.type !== 'list') }, s, 'list');
  return { inline, nested, ...(box ? { checked: 'checked' in box.attribs } : {}) };
}

/** A table's rows as lines of text, cells separated by " | " (a table has no node). */
function table(el: HtmlElement, f: Flow, s: HtmlSession, ctx: Context): void {
  endParagraph(f);
  const rows = findAll((n) => n.name === 'tr' || n.name === 'caption', el.children);
  for (const row of rows) {
    const cells =
      row.name === 'caption'
        ? [row]
        : row.children.filter((c): c is HtmlElement => isElement(c) && (c.name === 'td' || c.name === 'th'));
    const line = flow();
    cells.forEach((cell, i) => {
      if (i > 0) pushText(line.line, ' | ', ctx.format);
      line.line.push(...linesOf(inner(cell.children, s, ctx), s, 'table'));
    });
    endParagraph(line);
    f.blocks.push(...line.blocks);
  }
  if (!f.outer) f.blocks.push(...s.pending.splice(0));
}
