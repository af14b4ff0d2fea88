/**
 * Payload's GraphQL names, so its users' queries run unchanged (docs/graphql.md): a collection `posts`
 * is `Post` (one) and `Posts` (a page of them), from its labels when it has them; a global `settings` is
 * `Settings`, from its label when it has one; nested types join their parent's name with `_`.
 */
import { labelText } from '../config/label-text.ts';
import type { SanitizedCollection, SanitizedConfig, SanitizedGlobal } from '../config/types.ts';

/** Payload's `formatName`: a string made into a legal GraphQL name. */
export function formatName(text: string): string {
  const start = /^[0-9]/.test(text) ? `_${text}` : text;
  const formatted = start
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ /g, '')
    .replace(/[^_0-9A-Za-z]/g, '_');
  return formatted || '_';
}

/** `blog-posts` → `BlogPosts`, `Site settings` → `SiteSettings`. */
export function toWords(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

export const combineParentName = (parent: string, name: string) => formatName(`${parent}_${name}`);

export type CollectionNames = { singular: string; plural: string };

export function collectionNames(collection: SanitizedCollection): CollectionNames {
  const singular = formatName(toWords(labelText(collection.labels?.singular) ?? singularOf(collection.slug)));
  let plural = formatName(toWords(labelText(collection.labels?.plural) ?? pluralOf(collection.slug)));
  // `media` is both: Payload then calls the list `allMedia`.
  if (plural === singular) plural = `all${singular}`;
  return { singular, plural };
}

export function globalName(global: SanitizedGlobal): string {
  return formatName(toWords(labelText(global.label) ?? global.slug));
}

/** Every name the config asks for, checked once: two entities may not claim the same type. */
export function entityNames(config: SanitizedConfig) {
  const collections = new Map(config.collections.map((c) => [c.slug, collectionNames(c)]));
  const globals = new Map(config.globals.map((g) => [g.slug, globalName(g)]));
  const seen = new Map<string, string>();
  const claim = (name: string, owner: string) => {
    const other = seen.get(name);
    if (other && other !== owner)
      throw new Error(`GraphQL: "${owner}" and "${other}" would both be named ${name}; give one of them labels.`);
    seen.set(name, owner);
  };
  for (const [slug, n] of collections) claim(n.singular, slug), claim(n.plural, slug);
  for (const [slug, name] of globals) claim(name, `globals/${slug}`);
  return { collections, globals };
}

// Words whose plural is themselves (Payload's pluralize knows them): their lists are `all<Name>`.
const UNCOUNTABLE =
  /(media|data|metadata|news|information|content|equipment|feedback|series|species|software|settings)$/i;

function pluralOf(slug: string): string {
  if (UNCOUNTABLE.test(slug) || /s$/.test(slug)) return slug;
  if (/[^aeiou]y$/.test(slug)) return `${slug.slice(0, -1)}ies`;
  if (/(ch|sh|x|z)$/.test(slug)) return `${slug}es`;
  return `${slug}s`;
}

function singularOf(slug: string): string {
  if (UNCOUNTABLE.test(slug)) return slug;
  if (/ies$/.test(slug)) return slug.slice(0, -3) + 'y';
  if (/(ss|us|is)$/.test(slug)) return slug;
  if (/(ches|shes|xes|sses)$/.test(slug)) return slug.slice(0, -2);
  return slug.replace(/s$/, '');
}
