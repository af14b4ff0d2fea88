/**
 * Markdown in: a Markdown string written to a rich text field, or a Markdown file imported, becomes the same
 * content as Lexical JSON. `marked`'s lexer (CommonMark and GitHub's extensions: task lists, strikethrough,
 * tables) reads the text; this file maps its tokens onto the node subset (docs/rich-text.md). What has no
 * node (tables, raw HTML, MDX imports and components, images without a media document) keeps its text and
 * is counted; code blocks are lines of code-formatted text, so an image written in one stays text.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { Parser } from 'htmlparser2';
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
  paragraphNode,
  placeBlock,
  pushText,
  type RichTextRefs,
  rootValue,
  ruleNode,
  type Session,
  session,
  textNode,
} from './build-nodes.ts';
import { htmlBlocks, htmlRefs, mapsWhole } from './from-html.ts';
import { type LexicalNode, type RichTextValue, TEXT_FORMAT } from './nodes.ts';

export type { ConvertOptions, Lossy, RichTextRefs } from './build-nodes.ts';
export { splitFrontMatter } from './front-matter.ts';

/** One conversion: the nodes waiting to be placed after a list or quote, and inline HTML's open formats. */
type MdSession = Session & { pending: LexicalNode[]; htmlFormats: number[] };

const lex = (markdown: string) => Lexer.lex(markdown, { gfm: true });

/** The stored value for a Markdown string written to a rich text field. */
export function markdownToRichText(markdown: string): RichTextValue {
  return markdownToLexical(markdown, { mdx: false }).value;
}

export function markdownToLexical(markdown: string, options: ConvertOptions = {}): Converted {
  const s: MdSession = { ...session(options), pending: [], htmlFormats: [] };
  const top = flow();
  blocks(lex(markdown), top, s, 0);
  endParagraph(top, false);
  top.blocks.push(...s.pending);
  return { value: rootValue(top.blocks), lossy: lossyOf(s) };
}

/** Every link target and image of the Markdown (raw HTML included, code excluded), each once, in order. */
export function markdownRefs(markdown: string): RichTextRefs {
  const refs: RichTextRefs = { links: [], images: [] };
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'link') addRef(refs, 'link', (token as Tokens.Link).href);
      else if (token.type === 'image')
        addRef(refs, 'image', (token as Tokens.Image).href, (token as Tokens.Image).text);
      else if (token.type === 'html') {
        const found = htmlRefs(String(token.text));
        for (const href of found.links) addRef(refs, 'link', href);
        for (const image of found.images) addRef(refs, 'image', image.src, image.alt);
      }
      if (token.type === 'list') for (const item of (token as Tokens.List).items) visit(item.tokens);
      else if (token.type === 'table') {
        const table = token as Tokens.Table;
        for (const cell of [...table.header, ...table.rows.flat()]) visit(cell.tokens);
      } else if ('tokens' in token && token.tokens) visit(token.tokens);
    }
  };
  visit(lex(markdown));
  return refs;
}

function blocks(tokens: Token[], f: Flow, s: MdSession, depth: number): void {
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
      case 'def':
      case 'checkbox':
        break;
      case 'heading': {
        const inner = flow(s.pending);
        inline(token.tokens ?? [], inner, s, 0, null);
        endParagraph(inner, false);
        const children = joinLines(inner.blocks.map((b) => b.children ?? []));
        const tag = `h${Math.min(6, (token as Tokens.Heading).depth)}`;
        place(f, s, children.length ? element('heading', children, { tag }) : null);
        break;
      }
      case 'paragraph':
      case 'text':
        if (depth === 0 && token.type === 'paragraph' && s.options.mdx !== false && isModuleCode(token.text)) {
          lose(s, 'MDX import or export');
          break;
        }
        // A JSX element whose attributes are no HTML (`<Chart data={[1, 2]} />`) reads as a paragraph.
        if (token.type === 'paragraph' && isComponent(token.text.trim()) && token.text.trim().endsWith('>')) {
          html(token.text, f, s);
          break;
        }
        if (token.type === 'text' && !token.tokens) pushText(f.line, decodeEntities(token.text), 0);
        else inline(token.tokens ?? [], f, s, 0, null);
        // A format tag left open ends with its paragraph, as in a browser.
        s.htmlFormats = [];
        endParagraph(f, false);
        break;
      case 'blockquote': {
        const inner = flow(s.pending);
        blocks(token.tokens ?? [], inner, s, depth + 1);
        endParagraph(inner, false);
        // A quote holds no list: a list in it becomes lines of its items' text.
        const lines = inner.blocks.flatMap((b) => {
          if (b.type !== 'list') return [b.children ?? []];
          lose(s, 'list inside a quote');
          return listAsLines(b);
        });
        place(f, s, lines.length ? element('quote', joinLines(lines)) : null);
        break;
      }
      case 'list':
        place(f, s, listOf(token as Tokens.List, s, depth));
        break;
      case 'hr':
        placeBlock(f, ruleNode(), false);
        break;
      case 'code': {
        const line: LexicalNode[] = [];
        String(token.text)
          .split('\n')
          .forEach((text, i) => {
            if (i > 0) line.push(linebreakNode());
            pushText(line, text, TEXT_FORMAT.code);
          });
        placeBlock(f, paragraphNode(line), false);
        break;
      }
      case 'table':
        lose(s, 'table');
        table(token as Tokens.Table, f, s);
        break;
      case 'html':
        html(String(token.text), f, s);
        break;
      default:
        if ('text' in token && typeof token.text === 'string' && token.text.trim())
          placeBlock(f, paragraphNode([textNode(token.text.trim())]), false);
    }
  }
}

/** A list, quote or heading placed at the top, then what inside it could not stay there. */
function place(f: Flow, s: MdSession, node: LexicalNode | null): void {
  if (node) placeBlock(f, node, false);
  else endParagraph(f, false);
  if (!f.outer) f.blocks.push(...s.pending.splice(0));
}

function listOf(list: Tokens.List, s: MdSession, depth: number): LexicalNode | null {
  const listType = list.items.some((item) => item.task) ? 'check' : list.ordered ? 'number' : 'bullet';
  const start = typeof list.start === 'number' ? list.start : 1;
  const items: ListItemParts[] = list.items.map((item) => {
    const inner = flow(s.pending);
    blocks(item.tokens, inner, s, depth + 1);
    endParagraph(inner, false);
    const nested = inner.blocks.filter((b) => b.type === 'list');
    const inline = joinLines(inner.blocks.filter((b) => b.type !== 'list').map((b) => b.children ?? []));
    return { inline, nested, ...(listType === 'check' ? { checked: Boolean(item.checked) } : {}) };
  });
  return items.length ? listNode(listType, start, items, depth) : null;
}

function table(token: Tokens.Table, f: Flow, s: MdSession): void {
  endParagraph(f, false);
  for (const row of [token.header, ...token.rows]) {
    const line: LexicalNode[] = [];
    row.forEach((cell, i) => {
      if (i > 0) pushText(line, ' | ', 0);
      const inner = flow(s.pending);
      inline(cell.tokens, inner, s, 0, null);
      endParagraph(inner, false);
      line.push(...joinLines(inner.blocks.map((b) => b.children ?? [])));
    });
    if (line.length) f.blocks.push(paragraphNode(line));
  }
  if (!f.outer) f.blocks.push(...s.pending.splice(0));
}

/**
 * Raw HTML between Markdown blocks: read by the HTML reader, and counted unless every element of it has a
 * node (`<img>`, `<p>`, `<b>` …). An MDX component (a tag whose name starts with a capital) keeps the text
 * inside it and is counted as such; an HTML comment is dropped.
 */
function html(raw: string, f: Flow, s: MdSession): void {
  const text = raw.trim();
  if (text.startsWith('<!--') && text.endsWith('-->')) return;
  // A component's end tag alone closes what its start tag counted.
  if (text.startsWith('</') && isComponent(text)) return;
  if (isComponent(text)) lose(s, 'MDX component');
  else if (!mapsWhole(text)) lose(s, 'raw HTML');
  endParagraph(f, false);
  for (const node of htmlBlocks(text, s, false)) placeBlock(f, node, false);
}

const isComponent = (html: string) => /^<\/?[A-Z]/.test(html);

/**
 * An MDX paragraph of ES module code (`import x from './x'`, `export const meta = …`), which MDX reads as
 * code wherever a top-level paragraph starts with `import` or `export`. Plain Markdown prose that happens
 * to start with those words is told apart by what follows them.
 */
function isModuleCode(text: string): boolean {
  const code = text.trim();
  if (code.startsWith('export ')) return /^export\s+(const|let|var|function|async|class|default|\{|\*)/.test(code);
  if (!code.startsWith('import ') && !code.startsWith('import{')) return false;
  const rest = code.slice(6).trimStart();
  return rest.startsWith("'") || rest.startsWith('"') || / from\s*['"]/.test(code);
}

const HTML_FORMATS: Record<string, number> = {
  b: TEXT_FORMAT.bold,
  strong: TEXT_FORMAT.bold,
  i: TEXT_FORMAT.italic,
  em: TEXT_FORMAT.italic,
  u: TEXT_FORMAT.underline,
  ins: TEXT_FORMAT.underline,
  s: TEXT_FORMAT.strikethrough,
  del: TEXT_FORMAT.strikethrough,
  code: TEXT_FORMAT.code,
  kbd: TEXT_FORMAT.code,
  sub: TEXT_FORMAT.subscript,
  sup: TEXT_FORMAT.superscript,
};

function inline(tokens: Token[], f: Flow, s: MdSession, format: number, link: LexicalNode[] | null): void {
  const into = () => link ?? f.line;
  const withHtml = (bits: number) => s.htmlFormats.reduce((all, b) => all | b, bits);
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'escape':
        // A line end inside a paragraph (a soft break) shows as a space.
        if ('tokens' in token && token.tokens?.length) inline(token.tokens, f, s, format, link);
        else pushText(into(), decodeEntities(token.text).replaceAll('\n', ' '), withHtml(format));
        break;
      case 'strong':
        inline(token.tokens ?? [], f, s, format | TEXT_FORMAT.bold, link);
        break;
      case 'em':
        inline(token.tokens ?? [], f, s, format | TEXT_FORMAT.italic, link);
        break;
      case 'del':
        inline(token.tokens ?? [], f, s, format | TEXT_FORMAT.strikethrough, link);
        break;
      case 'codespan':
        pushText(into(), decodeEntities(token.text), withHtml(format | TEXT_FORMAT.code));
        break;
      case 'br':
        into().push(linebreakNode());
        break;
      case 'link': {
        if (link) {
          inline(token.tokens ?? [], f, s, format, link);
          break;
        }
        const href = (token as Tokens.Link).href;
        if (!isSafeHref(href)) {
          lose(s, 'unsafe link');
          inline(token.tokens ?? [], f, s, format, null);
          break;
        }
        const children: LexicalNode[] = [];
        inline(token.tokens ?? [], f, s, format, children);
        if (children.length) f.line.push(linkNode(s, href, children));
        // A linked image stands alone: a link to its own file loses nothing, a link elsewhere is counted.
        else if (token.tokens?.some((t) => t.type === 'image') && !isImageFile(href)) lose(s, 'link on an image');
        break;
      }
      case 'image': {
        const { href, text } = token as Tokens.Image;
        const made = imageNode(s, href, text, withHtml(format));
        if (made.block) placeBlock(f, made.node, false);
        else if (link) pushText(link, text, withHtml(format));
        else f.line.push(made.node);
        break;
      }
      case 'html':
        inlineHtml(String(token.text), f, s, format, link);
        break;
      default:
        if ('text' in token && typeof token.text === 'string' && token.text)
          pushText(into(), token.text, withHtml(format));
    }
  }
}

/**
 * An HTML tag inside a paragraph (marked gives each tag alone): `<br>` is a line break, format tags (`<u>`,
 * `<sub>`, `<sup>` …) format the text up to their end tag, an image is an image; others are counted.
 */
function inlineHtml(raw: string, f: Flow, s: MdSession, format: number, link: LexicalNode[] | null): void {
  if (raw.startsWith('<!--')) return;
  const tags: { name: string; closing: boolean; attributes: Record<string, string> }[] = [];
  if (raw.startsWith('</')) {
    // An end tag alone, which a parser drops when nothing it read opened it.
    let end = 2;
    while (end < raw.length && !' \t\n>'.includes(raw[end])) end++;
    tags.push({ name: raw.slice(2, end), closing: true, attributes: {} });
  } else {
    const parser = new Parser(
      { onopentag: (name, attributes) => tags.push({ name, closing: false, attributes }) },
      { decodeEntities: true, lowerCaseTags: false },
    );
    parser.end(raw);
  }
  for (const tag of tags) {
    const name = tag.name.toLowerCase();
    if (/^[A-Z]/.test(tag.name)) {
      if (!tag.closing) lose(s, 'MDX component');
    } else if (name === 'br') {
      if (!tag.closing) (link ?? f.line).push(linebreakNode());
    } else if (name === 'img' && !tag.closing && tag.attributes.src) {
      const token = { type: 'image', href: tag.attributes.src, text: tag.attributes.alt ?? '' } as Tokens.Image;
      inline([token], f, s, format, link);
    } else if (name in HTML_FORMATS) {
      if (!tag.closing) s.htmlFormats.push(HTML_FORMATS[name]);
      else {
        const at = s.htmlFormats.lastIndexOf(HTML_FORMATS[name]);
        if (at >= 0) s.htmlFormats.splice(at, 1);
      }
    } else if (!tag.closing) lose(s, 'raw HTML');
  }
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  apos: "'",
  nbsp: '\u00a0',
};
function decodeEntities(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_, name: string) => ENTITIES[name]);
}
