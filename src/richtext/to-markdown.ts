/**
 * Rich text → Markdown (CommonMark with GitHub's task lists and strikethrough), the inverse of
 * from-markdown.ts: what it writes reads back as the same nodes. Underline, subscript and superscript have
 * no Markdown form and are written as plain text; uploads become images, internal links link to
 * `/<collection>/<slug or id>`, relationships and blocks add nothing (a page renders them itself).
 */
import { TEXT_FORMAT, isObject, type LexicalNode, type RichTextValue } from './nodes.ts';
import { internalHref, safeURL } from './to-html.ts';

export function richTextToMarkdown(value: RichTextValue): string {
  return blocksToMarkdown(value.root.children ?? []).trimEnd();
}

function blocksToMarkdown(nodes: LexicalNode[]): string {
  return nodes
    .map(blockToMarkdown)
    .filter((block) => block !== '')
    .join('\n\n');
}

function blockToMarkdown(node: LexicalNode): string {
  switch (node.type) {
    case 'paragraph':
      return inlineToMarkdown(node.children ?? []);
    case 'heading':
      return `${'#'.repeat(Number(String(node.tag).slice(1)) || 1)} ${inlineToMarkdown(node.children ?? [])}`;
    case 'quote':
      return inlineToMarkdown(node.children ?? [])
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    case 'list':
      return listToMarkdown(node, 0);
    case 'horizontalrule':
      return '---';
    case 'upload':
      return uploadToMarkdown(node);
    default:
      return '';
  }
}

function listToMarkdown(list: LexicalNode, depth: number): string {
  const pad = '   '.repeat(depth);
  const start = typeof list.start === 'number' ? list.start : 1;
  // An item that holds only a nested list continues the item before it and takes no number (Lexical's form).
  let number = start;
  return (list.children ?? [])
    .map((item) => {
      const nested = (item.children ?? []).filter((c) => c.type === 'list');
      const inline = (item.children ?? []).filter((c) => c.type !== 'list');
      const marker =
        list.listType === 'number'
          ? `${inline.length || !nested.length ? number++ : number}.`
          : list.listType === 'check'
            ? `- [${item.checked ? 'x' : ' '}]`
            : '-';
      const lines = [
        inline.length ? `${pad}${marker} ${inlineToMarkdown(inline).replaceAll('\n', `\n${pad}   `)}` : '',
      ];
      for (const sub of nested) lines.push(listToMarkdown(sub, depth + 1));
      return lines.filter(Boolean).join('\n');
    })
    .join('\n');
}

function inlineToMarkdown(nodes: LexicalNode[]): string {
  return nodes
    .map((node) => {
      switch (node.type) {
        case 'text':
          return textToMarkdown(node);
        case 'tab':
          return '\t';
        case 'linebreak':
          return '  \n';
        case 'link':
        case 'autolink': {
          const fields = isObject(node.fields) ? node.fields : {};
          const url = fields.linkType === 'internal' ? internalURL(fields.doc) : String(fields.url ?? '');
          return `[${inlineToMarkdown(node.children ?? [])}](${destination(url)})`;
        }
        default:
          return '';
      }
    })
    .join('');
}

function textToMarkdown(node: LexicalNode): string {
  const format = typeof node.format === 'number' ? node.format : 0;
  const raw = String(node.text ?? '');
  if (format & TEXT_FORMAT.code) return codeSpan(raw);
  // Markdown's emphasis cannot start or end on a space: keep the spaces outside the markers.
  const [, lead, body, trail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(raw)!;
  if (!body) return raw;
  let text = escapeMarkdown(body);
  if (format & TEXT_FORMAT.strikethrough) text = `~~${text}~~`;
  if (format & TEXT_FORMAT.italic) text = `*${text}*`;
  if (format & TEXT_FORMAT.bold) text = `**${text}**`;
  return `${lead}${text}${trail}`;
}

/**
 * Inline code as a CommonMark code span: fenced by one backtick more than the longest run inside, so no
 * run can close it early, and padded with a space when the code starts or ends with a backtick (or with a
 * space at both ends, which the reader would otherwise strip). A line ending inside would let a blank line
 * end the paragraph; in a code span it reads as a space anyway, so it is written as one.
 */
function codeSpan(raw: string): string {
  const code = raw.replace(/\r\n?|\n/g, ' ');
  if (code === '') return '';
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const spaced = code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '';
  const pad = code.startsWith('`') || code.endsWith('`') || spaced ? ' ' : '';
  return `${fence}${pad}${code}${pad}${fence}`;
}

/** Characters that would start Markdown syntax where the text meant them literally. */
function escapeMarkdown(text: string): string {
  return text
    .replace(/([\\`*_~[\]<>])/g, '\\$1')
    .replace(/^([#>+-])(?=\s)/gm, '\\$1')
    .replace(/^(\d+)\.(?=\s)/gm, '$1\\.');
}

function destination(url: string): string {
  const safe = safeURL(url);
  return /[\s()<>]/.test(safe) ? `<${safe.replace(/[<>]/g, encodeURIComponent)}>` : safe;
}

function internalURL(doc: unknown): string {
  return isObject(doc) ? internalHref(doc as { relationTo: string; value: unknown }) : '#';
}

function uploadToMarkdown(node: LexicalNode): string {
  if (!isObject(node.value) || typeof node.value.url !== 'string') return '';
  const fields = isObject(node.fields) ? node.fields : {};
  const alt = String(fields.alt || node.value.alt || '').replace(/[[\]\\]/g, '\\$&');
  return `![${alt}](${destination(node.value.url)})`;
}
