/**
 * How a WordPress site maps onto collections: posts and pages, one collection per custom post type, categories,
 * tags, media for attachments, users for authors, and a `menus` global with one list per menu. The importer
 * and `--emit-config` both read it, so the config written is the one the import needs.
 */
import { fieldNameOf, slugify } from './names.ts';
import type { Needed } from './needed-config.ts';
import type { WxrItem, WxrSite } from './wxr-read.ts';

/** WordPress's own bookkeeping types: not content. */
const NOT_CONTENT = new Set([
  'attachment',
  'nav_menu_item',
  'revision',
  'custom_css',
  'customize_changeset',
  'oembed_cache',
  'user_request',
  'wp_block',
  'wp_template',
  'wp_template_part',
  'wp_global_styles',
  'wp_navigation',
  'wp_font_family',
  'wp_font_face',
]);
/** Statuses that are not documents: the trash, and the placeholders the editor makes before a first save. */
const NOT_DOCUMENTS = new Set(['trash', 'auto-draft', 'inherit']);
const TAKEN = new Set(['users', 'media', 'api-keys', 'categories', 'tags', 'posts', 'pages']);

export const MENUS_GLOBAL = 'menus';
export const TAXONOMIES = { category: 'categories', post_tag: 'tags' } as const;
export const CONTENT_FIELDS = ['title', 'slug', 'content', 'excerpt', 'publishedAt', 'author', 'featuredImage'];
export const TERM_FIELDS = ['title', 'slug', 'description'];

export function collectionOfType(type: string): string {
  if (type === 'post') return 'posts';
  if (type === 'page') return 'pages';
  const slug = slugify(type) || 'items';
  return TAKEN.has(slug) ? `wp-${slug}` : slug;
}

export const isContent = (item: WxrItem) => !NOT_CONTENT.has(item.type) && !NOT_DOCUMENTS.has(item.status);
export const isMenuItem = (item: WxrItem) => item.type === 'nav_menu_item' && !NOT_DOCUMENTS.has(item.status);

export type WordPressShape = {
  /** Content collections in the order they are written (pages before the rest, so parents exist). */
  types: { type: string; collection: string; fields: string[] }[];
  menus: { slug: string; name: string; field: string }[];
};

export function shapeOf(site: WxrSite): WordPressShape {
  const found = [...new Set(site.items.filter(isContent).map((i) => i.type))];
  const types = ['page', 'post', ...found.filter((t) => t !== 'post' && t !== 'page').sort()].map((type) => {
    const fields = [...CONTENT_FIELDS];
    if (type === 'post') fields.push('categories', 'tags');
    if (type === 'page') fields.push('parent');
    return { type, collection: collectionOfType(type), fields };
  });
  const menus = site.terms
    .filter((t) => t.taxonomy === 'nav_menu')
    .map((t) => ({ slug: t.slug, name: t.name, field: fieldNameOf(t.slug) }));
  return { types, menus };
}

export function neededOf(shape: WordPressShape): Needed {
  const collections: Record<string, string[]> = {
    categories: [...TERM_FIELDS, 'parent'],
    tags: TERM_FIELDS,
    media: ['alt'],
    users: ['email', 'name'],
  };
  for (const t of shape.types) collections[t.collection] = t.fields;
  const globals: Record<string, string[]> = {};
  if (shape.menus.length) globals[MENUS_GLOBAL] = shape.menus.map((m) => m.field);
  return { collections, globals };
}
