/**
 * Rich text → HTML, without a DOM. The markup follows Payload's own Lexical HTML converter (the same
 * elements, classes, inline styles and container), so a frontend's CSS for Payload fits; the fixtures in
 * test/fixtures/richtext/ hold its outputs for the same JSON. Safe by construction: every text and
 * attribute value is escaped, link URLs keep only http, https, mailto, tel, relative and fragment forms
 * (anything else becomes `#`), and styles are built from fixed values only. Where our output differs from
 * Payload's (internal links, relationship and block nodes) docs/rich-text.md says how and why.
 */
import { HEADING_TAGS, TEXT_FORMAT, isObject, type LexicalNode, type RichTextValue } from './nodes.ts';

type Doc = Record<string, unknown>;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHTML = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A URL as a link may carry it: allowed schemes and relative forms pass (control characters removed), anything else is `#`. */
export function safeURL(url: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = url.trim().replace(/[\x00-\x1f\x7f]/g, '');
  if (
    !cleaned ||
    cleaned.startsWith('#') ||
    cleaned.startsWith('/') ||
    cleaned.startsWith('./') ||
    cleaned.startsWith('../')
  )
    return cleaned;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(cleaned);
  if (scheme && !['http', 'https', 'mailto', 'tel'].includes(scheme[1].toLowerCase())) return '#';
  // A colon before any slash reads as a scheme to a browser even when our pattern did not match it.
  if (!scheme && /^[^/?#]*:/.test(cleaned)) return '#';
  return cleaned;
}

const ALIGN: Record<string, string> = {
  center: 'center',
  end: 'right',
  justify: 'justify',
  right: 'right',
  start: 'left',
};

/** Alignment and indent as CSS, from the node's fixed vocabulary only (never its free-form `style`). */
function cssOf(node: LexicalNode): string {
  let css = '';
  const align = typeof node.format === 'string' ? ALIGN[node.format] : undefined;
  if (align) css += `text-align: ${align};`;
  if (typeof node.indent === 'number' && node.indent > 0 && node.type !== 'listitem')
    css += `padding-inline-start: ${node.indent * 40}px;`;
  return css;
}

export type HTMLOptions = {
  /** The href of an internal link; by default `/<collection>/<slug or id>` of the linked document. */
  internalHref?: (doc: { relationTo: string; value: unknown }) => string;
};

/** Whether the value holds any text (an empty editor is one empty paragraph), as Payload's converters ask. */
export function hasText(value: RichTextValue): boolean {
  const children = value.root.children ?? [];
  if (children.length === 0) return false;
  if (children.length !== 1 || children[0].type !== 'paragraph') return true;
  const inner = children[0].children ?? [];
  if (inner.length === 0) return false;
  return !(inner.length === 1 && inner[0].type === 'text' && !String(inner[0].text ?? '').length);
}

export function richTextToHTML(value: RichTextValue, options: HTMLOptions = {}): string {
  const body = hasText(value) ? nodesToHTML(value.root.children ?? [], value.root, options) : '';
  return `<div class="payload-richtext">${body}</div>`;
}

function nodesToHTML(nodes: LexicalNode[], parent: LexicalNode, options: HTMLOptions): string {
  return nodes.map((node) => nodeToHTML(node, parent, options)).join('');
}

function nodeToHTML(node: LexicalNode, parent: LexicalNode, options: HTMLOptions): string {
  const css = cssOf(node);
  const style = css ? ` style="${css}"` : '';
  const children = () => nodesToHTML(node.children ?? [], node, options);
  switch (node.type) {
    case 'text':
      return textToHTML(node);
    case 'tab':
      return '\t';
    case 'linebreak':
      return '<br />';
    case 'horizontalrule':
      return '<hr />';
    case 'paragraph': {
      const inner = children();
      return inner ? `<p${style}>${inner}</p>` : `<p${style}><br /></p>`;
    }
    case 'heading': {
      const tag = HEADING_TAGS.has(String(node.tag)) ? String(node.tag) : 'h1';
      return `<${tag}${style}>${children()}</${tag}>`;
    }
    case 'quote':
      return `<blockquote${style}>${children()}</blockquote>`;
    case 'list': {
      const tag = node.tag === 'ol' ? 'ol' : 'ul';
      const listType = ['bullet', 'check', 'number'].includes(String(node.listType)) ? String(node.listType) : 'bullet';
      return `<${tag}${style} class="list-${listType}">${children()}</${tag}>`;
    }
    case 'listitem':
      return listItemToHTML(node, parent, css, children());
    case 'link':
    case 'autolink':
      return linkToHTML(node, style, children(), options);
    case 'upload':
      return uploadToHTML(node, style);
    // Payload has no default markup for these (it prints "unknown node"); a page renders them itself.
    case 'relationship':
    case 'block':
    case 'inlineBlock':
      return '';
    default:
      return '';
  }
}

function textToHTML(node: LexicalNode): string {
  let text = escapeHTML(String(node.text ?? ''));
  const format = typeof node.format === 'number' ? node.format : 0;
  if (format & TEXT_FORMAT.bold) text = `<strong>${text}</strong>`;
  if (format & TEXT_FORMAT.italic) text = `<em>${text}</em>`;
  if (format & TEXT_FORMAT.strikethrough) text = `<span style="text-decoration: line-through;">${text}</span>`;
  if (format & TEXT_FORMAT.underline) text = `<span style="text-decoration: underline;">${text}</span>`;
  if (format & TEXT_FORMAT.code) text = `<code>${text}</code>`;
  if (format & TEXT_FORMAT.subscript) text = `<sub>${text}</sub>`;
  if (format & TEXT_FORMAT.superscript) text = `<sup>${text}</sup>`;
  return text;
}

let checkboxCounter = 0;

/** Payload's list item markup, whitespace included, so both render the same. */
function listItemToHTML(node: LexicalNode, parent: LexicalNode, css: string, children: string): string {
  const hasSubLists = (node.children ?? []).some((child) => child.type === 'list');
  const value = escapeHTML(String(node.value ?? ''));
  if (parent.listType === 'check') {
    const id = `checkbox-${(checkboxCounter = (checkboxCounter + 1) % 1e9)}`;
    return `<li
          aria-checked="${node.checked ? 'true' : 'false'}"
          class="list-item-checkbox${node.checked ? ' list-item-checkbox-checked' : ' list-item-checkbox-unchecked'}${hasSubLists ? ' nestedListItem' : ''}"
          role="checkbox"
          style="list-style-type: none;${css}"
          tabIndex="-1"
          value="${value}"
        >
          ${
            hasSubLists
              ? children
              : `<input${node.checked ? ' checked' : ''} id="${id}" readOnly="true" type="checkbox" />
            <label htmlFor="${id}">${children}</label>
            <br />`
          }
        </li>`;
  }
  return `<li
          class="${hasSubLists ? 'nestedListItem' : ''}"
          style="${hasSubLists ? `list-style-type: none;${css}` : css}"
          value="${value}"
        >${children}</li>`;
}

function linkToHTML(node: LexicalNode, style: string, children: string, options: HTMLOptions): string {
  const fields = isObject(node.fields) ? node.fields : {};
  let href = typeof fields.url === 'string' ? fields.url : '';
  if (node.type === 'link' && fields.linkType === 'internal') {
    const doc = isObject(fields.doc) ? fields.doc : null;
    href = doc ? (options.internalHref ?? internalHref)(doc as { relationTo: string; value: unknown }) : '#';
  }
  const target = fields.newTab ? ' rel="noopener noreferrer" target="_blank"' : '';
  return `<a${style} href="${escapeHTML(safeURL(href))}"${target}>${children}</a>`;
}

/** `/<collection>/<slug or id>` of a populated internal link's document; `#` when it is not populated. */
export function internalHref(doc: { relationTo: string; value: unknown }): string {
  const target = isObject(doc.value) ? doc.value : null;
  if (!target) return '#';
  const key = typeof target.slug === 'string' && target.slug ? target.slug : String(target.id ?? '');
  return key ? `/${encodeURIComponent(doc.relationTo)}/${encodeURIComponent(key)}` : '#';
}

/** A populated upload: an image as `<img>` (a `<picture>` with a source per size when it has sizes), other files as a link. */
function uploadToHTML(node: LexicalNode, style: string): string {
  if (!isObject(node.value)) return '';
  const doc = node.value as Doc;
  const fields = isObject(node.fields) ? node.fields : {};
  const alt = escapeHTML(String(fields.alt || doc.alt || ''));
  const url = escapeHTML(safeURL(typeof doc.url === 'string' ? doc.url : ''));
  const size = (key: unknown) => escapeHTML(String(key ?? ''));
  if (typeof doc.mimeType !== 'string' || !doc.mimeType.startsWith('image')) {
    return `<a${style} href="${url}" rel="noopener noreferrer">${escapeHTML(String(doc.filename ?? ''))}</a>`;
  }
  const sizes = isObject(doc.sizes) ? Object.values(doc.sizes).filter(isObject) : [];
  if (sizes.length === 0) {
    return `
        <img${style}
          alt="${alt}"
          height="${size(doc.height)}"
          src="${url}"
          width="${size(doc.width)}"
        />
      `;
  }
  let picture = '';
  for (const variant of sizes) {
    if (
      !variant.width ||
      !variant.height ||
      !variant.mimeType ||
      !variant.filesize ||
      !variant.filename ||
      !variant.url
    )
      continue;
    picture += `
        <source
          media="(max-width: ${size(variant.width)}px)"
          srcset="${escapeHTML(safeURL(String(variant.url)))}"
          type="${size(variant.mimeType)}"
        />
      `;
  }
  picture += `
      <img
        alt="${alt}"
        height="${size(doc.height)}"
        src="${url}"
        width="${size(doc.width)}"
      />
    `;
  return `<picture${style}>${picture}</picture>`;
}
