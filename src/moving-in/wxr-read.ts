/**
 * Reads a WordPress export (WXR: RSS 2.0 with WordPress's own elements) into plain data. fast-xml-parser does the
 * XML (entities, CDATA, namespaces as prefixes); this file only names what WordPress puts where.
 */
import { XMLParser } from 'fast-xml-parser';

export type WxrAuthor = { login: string; email: string; displayName: string };
export type WxrTerm = {
  taxonomy: string;
  id: string;
  slug: string;
  name: string;
  parent: string;
  description: string;
};
export type WxrItem = {
  id: string;
  type: string;
  title: string;
  link: string;
  guid: string;
  creator: string;
  content: string;
  excerpt: string;
  date: string;
  dateGmt: string;
  slug: string;
  status: string;
  parent: string;
  menuOrder: number;
  attachmentUrl: string;
  /** Terms the item is filed under: `{ domain: 'category' | 'post_tag' | 'nav_menu' | …, slug, name }`. */
  terms: { domain: string; slug: string; name: string }[];
  meta: Record<string, string>;
};
export type WxrSite = {
  title: string;
  link: string;
  baseSiteUrl: string;
  baseBlogUrl: string;
  authors: WxrAuthor[];
  terms: WxrTerm[];
  items: WxrItem[];
};

type Node = Record<string, unknown>;
const str = (value: unknown): string => {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return str((value as Node)['#text']);
  return String(value);
};
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
/** WordPress stores titles and term names HTML-escaped (`&amp;`, `&#8217;`): the plain text of them. */
export const plainText = (value: string): string =>
  value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] !== '#') return NAMED[code.toLowerCase()] ?? whole;
    const n = code[1] === 'x' || code[1] === 'X' ? Number.parseInt(code.slice(2), 16) : Number(code.slice(1));
    return n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
  });
const text = (value: unknown) => plainText(str(value).trim());
const list = (value: unknown): Node[] => (Array.isArray(value) ? value : value ? [value] : []) as Node[];

export function readWxr(xml: string): WxrSite {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: true,
    // Repeated elements stay single objects when there is one: list() below takes both shapes.
  });
  const doc = parser.parse(xml) as Node;
  const channel = (doc.rss as Node | undefined)?.channel as Node | undefined;
  if (!channel) throw new Error('not a WordPress export: no <rss><channel>');
  const terms: WxrTerm[] = [
    ...list(channel['wp:category']).map((c) => ({
      taxonomy: 'category',
      id: str(c['wp:term_id']).trim(),
      slug: str(c['wp:category_nicename']).trim(),
      name: text(c['wp:cat_name']),
      parent: str(c['wp:category_parent']).trim(),
      description: text(c['wp:category_description']),
    })),
    ...list(channel['wp:tag']).map((t) => ({
      taxonomy: 'post_tag',
      id: str(t['wp:term_id']).trim(),
      slug: str(t['wp:tag_slug']).trim(),
      name: text(t['wp:tag_name']),
      parent: '',
      description: text(t['wp:tag_description']),
    })),
    ...list(channel['wp:term']).map((t) => ({
      taxonomy: str(t['wp:term_taxonomy']).trim(),
      id: str(t['wp:term_id']).trim(),
      slug: str(t['wp:term_slug']).trim(),
      name: text(t['wp:term_name']),
      parent: str(t['wp:term_parent']).trim(),
      description: text(t['wp:term_description']),
    })),
  ];
  return {
    title: text(channel.title),
    link: str(channel.link).trim(),
    baseSiteUrl: str(channel['wp:base_site_url']).trim(),
    baseBlogUrl: str(channel['wp:base_blog_url']).trim(),
    authors: list(channel['wp:author']).map((a) => ({
      login: str(a['wp:author_login']).trim(),
      email: str(a['wp:author_email']).trim(),
      displayName: text(a['wp:author_display_name']),
    })),
    // A term listed twice (categories also appear as wp:term in newer exports) is read once.
    terms: terms.filter((t, i) => terms.findIndex((o) => o.taxonomy === t.taxonomy && o.slug === t.slug) === i),
    items: list(channel.item).map(readItem),
  };
}

function readItem(item: Node): WxrItem {
  const meta: Record<string, string> = {};
  for (const m of list(item['wp:postmeta'])) meta[str(m['wp:meta_key']).trim()] = str(m['wp:meta_value']);
  return {
    id: str(item['wp:post_id']).trim(),
    type: str(item['wp:post_type']).trim(),
    title: text(item.title),
    link: str(item.link).trim(),
    guid: str(item.guid).trim(),
    creator: str(item['dc:creator']).trim(),
    content: str(item['content:encoded']),
    excerpt: text(item['excerpt:encoded']),
    date: str(item['wp:post_date']).trim(),
    dateGmt: str(item['wp:post_date_gmt']).trim(),
    slug: str(item['wp:post_name']).trim(),
    status: str(item['wp:status']).trim(),
    parent: str(item['wp:post_parent']).trim(),
    menuOrder: Number(str(item['wp:menu_order']).trim()) || 0,
    attachmentUrl: str(item['wp:attachment_url']).trim(),
    terms: list(item.category).map((c) => ({
      domain: str(c['@domain']),
      slug: str(c['@nicename']),
      name: text(c),
    })),
    meta,
  };
}
