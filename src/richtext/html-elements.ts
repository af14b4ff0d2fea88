/**
 * What the HTML reader (from-html.ts) knows of elements: which format text, which hold blocks, which are
 * dropped or counted as embeds, and how alignment and inline style read (docs/rich-text.md, "HTML and
 * Markdown in").
 */
import { type LexicalNode, TEXT_FORMAT } from './nodes.ts';

/** Elements whose every meaning has a node: HTML made of these alone loses nothing. */
export const FULLY_MAPPED = new Set([
  'p',
  'br',
  'img',
  'a',
  'ul',
  'ol',
  'li',
  'blockquote',
  'pre',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

export const FORMAT_OF: Record<string, number> = {
  strong: TEXT_FORMAT.bold,
  b: TEXT_FORMAT.bold,
  em: TEXT_FORMAT.italic,
  i: TEXT_FORMAT.italic,
  cite: TEXT_FORMAT.italic,
  dfn: TEXT_FORMAT.italic,
  var: TEXT_FORMAT.italic,
  u: TEXT_FORMAT.underline,
  ins: TEXT_FORMAT.underline,
  s: TEXT_FORMAT.strikethrough,
  strike: TEXT_FORMAT.strikethrough,
  del: TEXT_FORMAT.strikethrough,
  code: TEXT_FORMAT.code,
  kbd: TEXT_FORMAT.code,
  samp: TEXT_FORMAT.code,
  tt: TEXT_FORMAT.code,
  sub: TEXT_FORMAT.subscript,
  sup: TEXT_FORMAT.superscript,
};
/** Elements that hold blocks: their content starts and ends a paragraph of its own. */
export const CONTAINERS = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'aside',
  'nav',
  'figure',
  'figcaption',
  'center',
  'address',
  'details',
  'summary',
  'hgroup',
  'fieldset',
  'dl',
  'dt',
  'dd',
  'li',
  'body',
  'html',
]);
/** Elements with nothing to keep. */
export const DROPPED = new Set([
  'head',
  'title',
  'meta',
  'link',
  'style',
  'template',
  'noscript',
  'base',
  'wbr',
  'col',
  'colgroup',
  'source',
  'track',
  'param',
  'area',
  'map',
]);
/** Elements whose content shows elsewhere or not at all, by the name the report gives them. */
export const EMBEDS: Record<string, string> = {
  iframe: 'embed',
  embed: 'embed',
  object: 'embed',
  video: 'video',
  audio: 'audio',
  script: 'script',
  svg: 'svg',
  canvas: 'canvas',
  math: 'math',
};
export const FORM_PARTS = new Set([
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'option',
  'label',
  'output',
  'progress',
  'meter',
]);
export const ALIGNMENTS = ['left', 'center', 'right', 'justify'];

/** A paragraph or heading with the alignment its element asks for (inline style, or WordPress's classes). */
export function aligned<T extends LexicalNode | null>(node: T, attribs: Record<string, string>): T {
  if (!node || (node.type !== 'paragraph' && node.type !== 'heading') || node.format) return node;
  const classes = (attribs.class ?? '').split(/\s+/);
  let align = ALIGNMENTS.find((a) => classes.includes(`has-text-align-${a}`) || classes.includes(`align${a}`));
  for (const declaration of (attribs.style ?? '').toLowerCase().split(';')) {
    const [property, value = ''] = declaration.split(':').map((part) => part.trim());
    if (property === 'text-align' && ALIGNMENTS.includes(value)) align = value;
  }
  return align ? { ...node, format: align } : node;
}

/**
 * `format` with the bold, italic, underline, strikethrough, sub- and superscript that inline style (word
 * processors, copied web pages) turns on or off: Google Docs wraps a whole copy in
 * `<b style="font-weight:normal">`, which shows nothing bold.
 */
export function styledFormat(format: number, style: string): number {
  for (const declaration of style.toLowerCase().split(';')) {
    const [property, value = ''] = declaration.split(':').map((part) => part.trim());
    if (property === 'font-weight') {
      const weight =
        value === 'bold' || value === 'bolder' ? 700 : value === 'normal' || value === 'lighter' ? 400 : Number(value);
      if (weight >= 600) format |= TEXT_FORMAT.bold;
      else if (weight > 0) format &= ~TEXT_FORMAT.bold;
    } else if (property === 'font-style') {
      if (value === 'italic' || value === 'oblique') format |= TEXT_FORMAT.italic;
      else if (value === 'normal') format &= ~TEXT_FORMAT.italic;
    } else if (property === 'text-decoration' || property === 'text-decoration-line') {
      if (value.includes('underline')) format |= TEXT_FORMAT.underline;
      if (value.includes('line-through')) format |= TEXT_FORMAT.strikethrough;
      if (value === 'none') format &= ~(TEXT_FORMAT.underline | TEXT_FORMAT.strikethrough);
    } else if (property === 'vertical-align' && value === 'sub') format |= TEXT_FORMAT.subscript;
    else if (property === 'vertical-align' && value === 'super') format |= TEXT_FORMAT.superscript;
  }
  return format;
}
