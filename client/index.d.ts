/**
 * Types of the HTTP client (client/index.js). Pass the `CMSTypes` map that `cms generate:types` writes:
 * `createClient<CMSTypes>({ url, key })` makes an unknown slug, field, select value or locale a compile
 * error and gives documents their interfaces, as `getCMS<CMSTypes>()` does for the Local API.
 */
type EntityTypes = { doc: object; allLocales: object; data: object; path: string };
export type CMSTypesShape = {
  locale: string;
  collections: Record<string, EntityTypes>;
  globals: Record<string, EntityTypes>;
};
type Record_ = Record<string, unknown>;
/** Without a map: every slug is a string and every document a record. */
export type UntypedCMS = {
  locale: string;
  collections: Record<string, { doc: Record_; allLocales: Record_; data: Record_; path: string }>;
  globals: Record<string, { doc: Record_; allLocales: Record_; data: Record_; path: string }>;
};

type CollectionSlug<T extends CMSTypesShape> = Extract<keyof T['collections'], string>;
type GlobalSlug<T extends CMSTypesShape> = Extract<keyof T['globals'], string>;
type Read<E extends EntityTypes, L> = L extends 'all' ? E['allLocales'] : E['doc'];
type LocaleArg<T extends CMSTypesShape> = T['locale'] | 'all' | undefined;
type Common<T extends CMSTypesShape, L> = { locale?: L; fallbackLocale?: T['locale'] | false; depth?: number };

/** One field's conditions: every operator the server takes, under each of its spellings. */
export type WhereCondition = {
  equals?: unknown;
  not_equals?: unknown;
  gt?: unknown;
  gte?: unknown;
  lt?: unknown;
  lte?: unknown;
  greater_than?: unknown;
  greater_than_equal?: unknown;
  less_than?: unknown;
  less_than_equal?: unknown;
  in?: unknown[] | string;
  not_in?: unknown[] | string;
  like?: string;
  not_like?: string;
  contains?: string;
  exists?: boolean;
  /** `<lng>,<lat>[,<max metres>[,<min metres>]]` on a point field. */
  near?: string;
};
/** `where` on the entity's paths (`seo.title`, and `category.name` through a relationship to one collection). */
export type TypedWhere<P extends string> = { [K in P]?: WhereCondition } & {
  and?: TypedWhere<P>[];
  or?: TypedWhere<P>[];
};
type Sort<P extends string> = P | `-${P}`;
type Shape<E extends EntityTypes> = {
  select?: { [K in keyof E['doc']]?: unknown };
  populate?: Record<string, unknown>;
  /** Every rich text value as a string in this format instead of its JSON. */
  richText?: 'html' | 'markdown' | 'text';
  /** `false` skips join fields; per join field `{ limit, page, sort, where }`. */
  joins?: false | Record<string, { limit?: number; page?: number; sort?: string; where?: Record<string, unknown> }>;
};

type Collection<T extends CMSTypesShape, S extends CollectionSlug<T>> = T['collections'][S];
type Global<T extends CMSTypesShape, G extends GlobalSlug<T>> = T['globals'][G];
export type PaginatedDocs<D> = {
  docs: D[];
  totalDocs: number;
  limit: number;
  page: number;
  totalPages: number;
  pagingCounter: number;
  hasNextPage: boolean;
  hasPrevPage: boolean;
  nextPage: number | null;
  prevPage: number | null;
};
export type BulkResult<D> = { docs: D[]; errors: { id: number; message: string }[]; message: string };

export interface CMSClient<T extends CMSTypesShape = UntypedCMS> {
  find<S extends CollectionSlug<T>, L extends LocaleArg<T> = undefined>(
    args: Common<T, L> &
      Shape<Collection<T, S>> & {
        collection: S;
        where?: TypedWhere<Collection<T, S>['path']>;
        sort?: Sort<Collection<T, S>['path']>;
        limit?: number;
        page?: number;
        draft?: boolean;
        pagination?: boolean;
      },
  ): Promise<PaginatedDocs<Read<Collection<T, S>, L>>>;
  findByID<S extends CollectionSlug<T>, L extends LocaleArg<T> = undefined>(
    args: Common<T, L> &
      Shape<Collection<T, S>> & {
        collection: S;
        id: number | string;
        draft?: boolean;
      },
  ): Promise<Read<Collection<T, S>, L>>;
  count<S extends CollectionSlug<T>>(args: {
    collection: S;
    where?: TypedWhere<Collection<T, S>['path']>;
    draft?: boolean;
    locale?: LocaleArg<T>;
  }): Promise<{ totalDocs: number }>;
  create<S extends CollectionSlug<T>>(
    args: Common<T, T['locale'] | undefined> & { collection: S; data: Collection<T, S>['data']; draft?: boolean },
  ): Promise<Collection<T, S>['doc']>;
  /** `POST /:collection/:id/duplicate`: a copy as a new document (a draft on a drafts collection), `data` changed in it. */
  duplicate<S extends CollectionSlug<T>>(
    args: Common<T, T['locale'] | undefined> & {
      collection: S;
      id: number | string;
      data?: Partial<Collection<T, S>['data']>;
    },
  ): Promise<Collection<T, S>['doc']>;
  update<S extends CollectionSlug<T>>(
    args: Common<T, T['locale'] | undefined> & {
      collection: S;
      id: number | string;
      data: Partial<Collection<T, S>['data']>;
      draft?: boolean;
    },
  ): Promise<Collection<T, S>['doc']>;
  update<S extends CollectionSlug<T>>(
    args: Common<T, T['locale'] | undefined> & {
      collection: S;
      where: TypedWhere<Collection<T, S>['path']>;
      data: Partial<Collection<T, S>['data']>;
      draft?: boolean;
    },
  ): Promise<BulkResult<Collection<T, S>['doc']>>;
  delete<S extends CollectionSlug<T>>(args: { collection: S; id: number | string }): Promise<Collection<T, S>['doc']>;
  delete<S extends CollectionSlug<T>>(args: {
    collection: S;
    where: TypedWhere<Collection<T, S>['path']>;
    draft?: boolean;
    locale?: LocaleArg<T>;
  }): Promise<BulkResult<Collection<T, S>['doc']>>;
  findGlobal<G extends GlobalSlug<T>, L extends LocaleArg<T> = undefined>(
    args: Common<T, L> & Shape<Global<T, G>> & { slug: G; draft?: boolean },
  ): Promise<Read<Global<T, G>, L>>;
  updateGlobal<G extends GlobalSlug<T>>(
    args: Common<T, T['locale'] | undefined> & { slug: G; data: Partial<Global<T, G>['data']>; draft?: boolean },
  ): Promise<Global<T, G>['doc']>;
}

export type ClientOptions = {
  /** The API base, e.g. `https://cms.example.com/api/cms` (a bare origin gets `/api/cms`). */
  url: string;
  /** An API key (`cms_…`); or `token`, a session token. */
  key?: string;
  token?: string;
  /** Another fetch (a test double, a proxy-aware one); the global fetch by default. */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
};

export declare function createClient<T extends CMSTypesShape = UntypedCMS>(options: ClientOptions): CMSClient<T>;

export declare class CMSClientError extends Error {
  readonly status: number;
  readonly errors: { message: string; field?: string; path?: string }[];
  constructor(status: number, errors: { message: string; field?: string }[]);
}
