/** `cms import wordpress FILE --emit-config OUT`: the config the import needs, from what the export holds. */
import { configText, type EmittedCollection, type EmittedField } from './config-text.ts';
import { MENUS_GLOBAL, shapeOf } from './wordpress-shape.ts';
import type { WxrSite } from './wxr-read.ts';

const FIELDS: Record<string, EmittedField> = {
  title: { name: 'title', type: 'text', required: true },
  slug: { name: 'slug', type: 'text', index: true },
  content: { name: 'content', type: 'richText' },
  excerpt: { name: 'excerpt', type: 'textarea' },
  publishedAt: { name: 'publishedAt', type: 'date' },
  author: { name: 'author', type: 'relationship', relationTo: 'users' },
  featuredImage: { name: 'featuredImage', type: 'upload', relationTo: 'media' },
  categories: { name: 'categories', type: 'relationship', relationTo: 'categories', hasMany: true },
  tags: { name: 'tags', type: 'relationship', relationTo: 'tags', hasMany: true },
  parent: { name: 'parent', type: 'relationship', relationTo: 'pages' },
  description: { name: 'description', type: 'textarea' },
};

export function wordpressConfig(site: WxrSite): string {
  const shape = shapeOf(site);
  const collections: EmittedCollection[] = [
    ...shape.types.map((t) => ({ slug: t.collection, drafts: true, fields: t.fields.map((f) => FIELDS[f]!) })),
    {
      slug: 'categories',
      drafts: false,
      fields: [
        FIELDS.title!,
        FIELDS.slug!,
        FIELDS.description!,
        { name: 'parent', type: 'relationship', relationTo: 'categories' },
      ],
    },
    { slug: 'tags', drafts: false, fields: [FIELDS.title!, FIELDS.slug!, FIELDS.description!] },
  ];
  const menus = shape.menus.map((m) => ({
    name: m.field,
    label: m.name,
    type: 'array',
    fields: [
      { name: 'label', type: 'text' },
      { name: 'link', type: 'text' },
    ],
  }));
  const heading = `cms.config.ts written by \`cms import wordpress --emit-config\` from "${site.title.replace(/\n/g, ' ')}".
Review it, start the server once with it, then run the import (docs/moving-in.md).`;
  return configText(heading, collections, menus.length ? [{ slug: MENUS_GLOBAL, fields: menus }] : []);
}
