/**
 * What the two typed APIs share, the Local API (src/local-types.ts) and the HTTP client (client/index.d.ts):
 * the `CMSTypes` map `cms generate:types` writes, and the `where`, `sort` and shape options of reads.
 * client/index.d.ts ships on its own, so it spells these out; test/client/types.test.ts holds its copies
 * equal to these. Types only.
 */
import type { WhereCondition } from './where.ts';

export type EntityTypes = { doc: object; allLocales: object; data: object; path: string };
export type CMSTypesShape = {
  locale: string;
  collections: Record<string, EntityTypes>;
  globals: Record<string, EntityTypes>;
};

type Record_ = Record<string, unknown>;
/** The map of a project that has not generated its types: every slug is a string and every document a record. */
export type UntypedCMS = {
  locale: string;
  collections: Record<string, { doc: Record_; allLocales: Record_; data: Record_; path: string }>;
  globals: Record<string, { doc: Record_; allLocales: Record_; data: Record_; path: string }>;
};

export type CollectionSlug<T extends CMSTypesShape> = Extract<keyof T['collections'], string>;
export type GlobalSlug<T extends CMSTypesShape> = Extract<keyof T['globals'], string>;
/** `locale: 'all'` reads every locale's value of localized fields. */
export type Read<E extends EntityTypes, L> = L extends 'all' ? E['allLocales'] : E['doc'];
export type LocaleArg<T extends CMSTypesShape> = T['locale'] | 'all' | undefined;

/**
 * `where` on the entity's paths (`seo.title`, and `category.name` through a relationship), with `and` / `or`
 * nesting; each path's conditions are `C` (the Local API takes any value there, as the config's `Where` does).
 */
export type TypedWhere<P extends string, C = WhereCondition> = { [K in P]?: C } & {
  and?: TypedWhere<P, C>[];
  or?: TypedWhere<P, C>[];
};
export type Sort<P extends string> = P | `-${P}`;
export type Shape<E extends EntityTypes> = {
  select?: { [K in keyof E['doc']]?: unknown };
  populate?: Record<string, unknown>;
  /** Every rich text value as a string in this format instead of its JSON. */
  richText?: 'html' | 'markdown' | 'text';
  /** `false` skips join fields; per join field `{ limit, page, sort, where }`. */
  joins?: false | Record<string, { limit?: number; page?: number; sort?: string; where?: Record<string, unknown> }>;
};

export type Collection<T extends CMSTypesShape, S extends CollectionSlug<T>> = T['collections'][S];
export type Global<T extends CMSTypesShape, G extends GlobalSlug<T>> = T['globals'][G];
