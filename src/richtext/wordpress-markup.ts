/**
 * WordPress's own markup inside post HTML: Gutenberg's block comments (`<!-- wp:gallery {…} -->`), which say
 * what a piece of HTML was made as, and shortcodes (`[gallery ids="1,2"]`, `[caption]…[/caption]`), which
 * WordPress expands when it renders. Neither has a rich text node: the HTML reader keeps their text and counts
 * them here (docs/rich-text.md, "HTML and Markdown in").
 */

/** Block comments, as the reader meets them: an opening one names a block, a closing one ends it. */
export type BlockComment = { name: string; closing: boolean };

export function blockComment(data: string): BlockComment | null {
  const body = data.trim();
  const closing = body.startsWith('/wp:');
  if (!closing && !body.startsWith('wp:')) return null;
  const start = closing ? 4 : 3;
  let end = start;
  while (end < body.length && !' \t\n\r'.includes(body[end])) end++;
  // A block without content closes itself: `<!-- wp:spacer /-->`.
  const name = body.slice(start, end).replace(/\/$/, '');
  return name ? { name: name.startsWith('core/') ? name.slice(5) : name, closing } : null;
}

/** Blocks whose HTML the reader maps onto nodes, or that hold nothing to keep (a spacer, a page's "more" line). */
const MAPPED = new Set([
  'paragraph',
  'heading',
  'list',
  'list-item',
  'quote',
  'pullquote',
  'image',
  'separator',
  'code',
  'preformatted',
  'verse',
  'group',
  'freeform',
  'missing',
  'spacer',
  'shortcode',
  'table',
  'audio',
  'video',
  'file',
  'details',
  // The comments inside these blocks (`<!--more-->`, `<!--nextpage-->`) are counted themselves.
  'more',
  'nextpage',
]);
/** Blocks whose layout or behaviour has no node, by the name the report gives them. */
const LOSSY: Record<string, string> = {
  gallery: 'gallery',
  columns: 'columns',
  embed: 'embed',
  html: 'raw HTML',
  buttons: 'buttons',
  cover: 'cover',
  'media-text': 'media and text',
};

/** What a block without a node is counted as, or null for a block the reader maps. */
export function blockLoss(name: string): string | null {
  if (MAPPED.has(name) || name === 'column' || name === 'button') return null;
  if (name in LOSSY) return LOSSY[name];
  // Embeds of older WordPress versions are named by provider: core-embed/youtube.
  if (name.startsWith('core-embed/')) return 'embed';
  return `WordPress block ${name}`;
}

/** Shortcodes WordPress ships, taken as shortcodes even without attributes or a closing tag. */
const KNOWN_SHORTCODES = new Set(['caption', 'wp_caption', 'gallery', 'audio', 'video', 'playlist', 'embed']);

/**
 * Text with its shortcode tags taken out (what they enclose stays) and the names of the shortcodes found.
 * A bracketed word counts as a shortcode when WordPress ships it, when it has attributes (`[x a="1"]`) or
 * when it is closed (`[x]…[/x]`), so ordinary bracketed text such as "[sic]" or "[1]" stays as written.
 */
export function stripShortcodes(
  text: string,
  closedLater: (name: string) => boolean,
): { text: string; names: string[] } {
  if (!text.includes('[')) return { text, names: [] };
  const names: string[] = [];
  let out = '';
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('[', i);
    if (open < 0) break;
    const tag = shortcodeAt(text, open);
    if (!tag || (!tag.closing && !tag.attributes && !KNOWN_SHORTCODES.has(tag.name) && !closedLater(tag.name))) {
      out += text.slice(i, open + 1);
      i = open + 1;
      continue;
    }
    out += text.slice(i, open);
    if (!tag.closing) names.push(tag.name);
    i = tag.end;
  }
  return { text: out + text.slice(i), names };
}

type ShortcodeTag = { name: string; closing: boolean; attributes: boolean; end: number };

function shortcodeAt(text: string, open: number): ShortcodeTag | null {
  let i = open + 1;
  // `[[gallery]]` is WordPress's way to write a shortcode as text.
  if (text[i] === '[') return null;
  const closing = text[i] === '/';
  if (closing) i++;
  const nameStart = i;
  while (i < text.length && isNameChar(text[i])) i++;
  if (i === nameStart || !/[a-z]/i.test(text[nameStart])) return null;
  const name = text.slice(nameStart, i).toLowerCase();
  const close = text.indexOf(']', i);
  if (close < 0) return null;
  const rest = text.slice(i, close);
  if (rest && !' \t\n/'.includes(rest[0])) return null;
  if (closing && rest.trim()) return null;
  return { name, closing, attributes: rest.includes('='), end: close + 1 };
}

const isNameChar = (c: string) => /[\w-]/.test(c);

/** Whether `[/name]` appears in the post (given in lower case): the HTML reader asks it of the whole post. */
export function closesShortcode(lowerCaseHtml: string, name: string): boolean {
  return lowerCaseHtml.includes(`[/${name}]`);
}
