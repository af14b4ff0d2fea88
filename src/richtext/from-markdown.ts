/**
 * Markdown in: a Markdown string written to a rich text field becomes the same content as Lexical JSON.
 * `marked`'s lexer (CommonMark and GitHub's extensions: task lists, strikethrough) reads the text; this
 * file maps its tokens onto the node subset (docs/rich-text.md). What has no node (code blocks, tables,
 * raw HTML, images without a media document) keeps its text in paragraphs, so nothing written is lost.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { TEXT_FORMAT, type LexicalNode, type RichTextValue } from './nodes.ts';

const element = (type: string, children: LexicalNode[], extra: Record<string, unknown> = {}): LexicalNode => ({
  type,
  children,
  direction: null,
  format: '',
  indent: 0,
  version: 1,
  ...extra,
});
const text = (value: string, format = 0): LexicalNode => ({
  type: 'text',
  text: value,
  format,
  style: '',
  mode: 'normal',
  detail: 0,
  version: 1,
});
const paragraph = (children: LexicalNode[]) => element('paragraph', children, { textFormat: 0 });

export function markdownToRichText(markdown: string): RichTextValue {
  const tokens = Lexer.lex(markdown, { gfm: true });
  return { root: { ...element('root', blocksOf(tokens)), type: 'root' } };
}

function blocksOf(tokens: Token[]): LexicalNode[] {
  const out: LexicalNode[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'space':
      case 'def':
        break;
      case 'heading':
        out.push(
          element('heading', inlineOf(token.tokens ?? []), { tag: `h${Math.min(6, (token as Tokens.Heading).depth)}` }),
        );
        break;
      case 'paragraph':
        out.push(paragraph(inlineOf(token.tokens ?? [])));
        break;
      case 'blockquote':
        // A quote holds inline content: its paragraphs are joined by line breaks.
        out.push(
          element('quote', joinLines(blocksOf(token.tokens ?? []).map((b) => b.children ?? [text(textOfBlock(b))]))),
        );
        break;
      case 'list':
        out.push(listOf(token as Tokens.List, 0));
        break;
      case 'hr':
        out.push({ type: 'horizontalrule', version: 1 });
        break;
      case 'code':
        out.push(
          paragraph(
            joinLines(
              String(token.text)
                .split('\n')
                .map((line) => [text(line, TEXT_FORMAT.code)]),
            ),
          ),
        );
        break;
      case 'table': {
        const table = token as Tokens.Table;
        for (const row of [table.header, ...table.rows])
          out.push(paragraph([text(row.map((cell) => cell.text).join(' | '))]));
        break;
      }
      default:
        if ('text' in token && typeof token.text === 'string' && token.text.trim())
          out.push(paragraph([text(token.text.trim())]));
    }
  }
  return out;
}

function listOf(list: Tokens.List, indent: number): LexicalNode {
  const listType = list.items.some((item) => item.task) ? 'check' : list.ordered ? 'number' : 'bullet';
  const start = typeof list.start === 'number' ? list.start : 1;
  const items = list.items.map((item, i) => {
    const children: LexicalNode[] = [];
    const inline: LexicalNode[][] = [];
    for (const token of item.tokens) {
      if (token.type === 'list') children.push(listOf(token as Tokens.List, indent + 1));
      else if (token.type === 'checkbox') continue;
      else if (token.type === 'text' || token.type === 'paragraph')
        inline.push(inlineOf(token.tokens ?? ([text(token.text)] as Token[])));
    }
    const extra: Record<string, unknown> = { value: listType === 'number' ? start + i : i + 1 };
    if (listType === 'check') extra.checked = Boolean(item.checked);
    return element('listitem', [...joinLines(inline), ...children], extra);
  });
  return element('list', items, { listType, start, tag: list.ordered ? 'ol' : 'ul', indent });
}

function joinLines(lines: LexicalNode[][]): LexicalNode[] {
  return lines.flatMap((line, i) => (i === 0 ? line : [{ type: 'linebreak', version: 1 }, ...line]));
}

function textOfBlock(node: LexicalNode): string {
  return (node.children ?? []).map((c) => String(c.text ?? '')).join('');
}

function inlineOf(tokens: Token[], format = 0): LexicalNode[] {
  const out: LexicalNode[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'text':
      case 'escape':
        if ('tokens' in token && token.tokens?.length) out.push(...inlineOf(token.tokens, format));
        else pushText(out, decodeEntities(token.text), format);
        break;
      case 'strong':
        out.push(...inlineOf(token.tokens ?? [], format | TEXT_FORMAT.bold));
        break;
      case 'em':
        out.push(...inlineOf(token.tokens ?? [], format | TEXT_FORMAT.italic));
        break;
      case 'del':
        out.push(...inlineOf(token.tokens ?? [], format | TEXT_FORMAT.strikethrough));
        break;
      case 'codespan':
        pushText(out, decodeEntities(token.text), format | TEXT_FORMAT.code);
        break;
      case 'br':
        out.push({ type: 'linebreak', version: 1 });
        break;
      case 'link': {
        const children = inlineOf(token.tokens ?? [], format).filter((n) => n.type !== 'link');
        out.push(
          element('link', children, {
            version: 3,
            fields: { linkType: 'custom', url: (token as Tokens.Link).href, newTab: false },
          }),
        );
        break;
      }
      // An image names a file, not a media document: it stays a link to that file.
      case 'image':
        out.push(
          element('link', [text((token as Tokens.Image).text || (token as Tokens.Image).href, format)], {
            version: 3,
            fields: { linkType: 'custom', url: (token as Tokens.Image).href, newTab: false },
          }),
        );
        break;
      default:
        if ('text' in token && typeof token.text === 'string' && token.text) pushText(out, token.text, format);
    }
  }
  return out;
}

/** Text that continues the previous node with the same format is merged into it, as Lexical does. */
function pushText(out: LexicalNode[], value: string, format: number): void {
  const last = out[out.length - 1];
  if (last?.type === 'text' && last.format === format) last.text = `${last.text}${value}`;
  else if (value) out.push(text(value, format));
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
