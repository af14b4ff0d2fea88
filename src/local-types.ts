/**
 * The Local API's types, shaped by a `CMSTypes` map from `cms generate:types` (docs/typescript.md):
 * `getCMS<CMSTypes>()` makes an unknown slug, field, select value or locale a compile error and gives
 * documents their interfaces. Without the map every slug is a string and every document a record.
 */
import type { User } from './config/types.ts';
import type { PaginatedDocs } from './operations/find.ts';
import type {
  Collection,
  CollectionSlug,
  CMSTypesShape,
  Global,
  GlobalSlug,
  LocaleArg,
  Read,
  Shape,
  Sort,
  TypedWhere as WireWhere,
} from './wire/typed-api.ts';

/** `where` on the entity's paths (`seo.title`, and `category.name` through a relationship), with `and` / `or` nesting. */
export type TypedWhere<P extends string> = WireWhere<P, unknown>;

export type TypedCommon<T extends CMSTypesShape, L> = {
  user?: User | null;
  overrideAccess?: boolean;
  locale?: L;
  fallbackLocale?: T['locale'] | false;
  depth?: number;
  showHiddenFields?: boolean;
};
/** Releases a read applies, as if published in this order (docs/releases.md). */
export type ReleaseList = number | string | number[];
type Paginated<D> = Omit<PaginatedDocs, 'docs'> & { docs: D[] };
type Bulk<D> = { docs: D[]; errors: { id: number; message: string }[] };

export interface TypedLocalAPI<T extends CMSTypesShape> {
  find<S extends CollectionSlug<T>, L extends LocaleArg<T> = undefined>(
    args: TypedCommon<T, L> &
      Shape<Collection<T, S>> & {
        collection: S;
        where?: TypedWhere<Collection<T, S>['path']>;
        sort?: Sort<Collection<T, S>['path']>;
        limit?: number;
        page?: number;
        draft?: boolean;
        pagination?: boolean;
        release?: ReleaseList;
      },
  ): Promise<Paginated<Read<Collection<T, S>, L>>>;
  findByID<S extends CollectionSlug<T>, L extends LocaleArg<T> = undefined>(
    args: TypedCommon<T, L> &
      Shape<Collection<T, S>> & {
        collection: S;
        id: number | string;
        draft?: boolean;
        release?: ReleaseList;
      },
  ): Promise<Read<Collection<T, S>, L>>;
  count<S extends CollectionSlug<T>>(
    args: TypedCommon<T, LocaleArg<T>> & {
      collection: S;
      where?: TypedWhere<Collection<T, S>['path']>;
      draft?: boolean;
      release?: ReleaseList;
    },
  ): Promise<{ totalDocs: number }>;
  create<S extends CollectionSlug<T>>(
    args: TypedCommon<T, T['locale'] | undefined> & { collection: S; data: Collection<T, S>['data']; draft?: boolean },
  ): Promise<Collection<T, S>['doc']>;
  /** A copy of the document as a new one (a draft on a drafts collection), `data` changed in it. */
  duplicate<S extends CollectionSlug<T>>(
    args: TypedCommon<T, T['locale'] | undefined> & {
      collection: S;
      id: number | string;
      data?: Partial<Collection<T, S>['data']>;
    },
  ): Promise<Collection<T, S>['doc']>;
  update<S extends CollectionSlug<T>>(
    args: TypedCommon<T, T['locale'] | undefined> & {
      collection: S;
      id: number | string;
      data: Partial<Collection<T, S>['data']>;
      draft?: boolean;
      autosave?: boolean;
    },
  ): Promise<Collection<T, S>['doc']>;
  update<S extends CollectionSlug<T>>(
    args: TypedCommon<T, T['locale'] | undefined> & {
      collection: S;
      where: TypedWhere<Collection<T, S>['path']>;
      data: Partial<Collection<T, S>['data']>;
      draft?: boolean;
    },
  ): Promise<Bulk<Collection<T, S>['doc']>>;
  delete<S extends CollectionSlug<T>>(
    args: TypedCommon<T, LocaleArg<T>> & { collection: S; id: number | string },
  ): Promise<Collection<T, S>['doc']>;
  delete<S extends CollectionSlug<T>>(
    args: TypedCommon<T, LocaleArg<T>> & {
      collection: S;
      where: TypedWhere<Collection<T, S>['path']>;
      draft?: boolean;
    },
  ): Promise<Bulk<Collection<T, S>['doc']>>;
  findGlobal<G extends GlobalSlug<T>, L extends LocaleArg<T> = undefined>(
    args: TypedCommon<T, L> & Shape<Global<T, G>> & { slug: G; draft?: boolean; release?: ReleaseList },
  ): Promise<Read<Global<T, G>, L>>;
  updateGlobal<G extends GlobalSlug<T>>(
    args: TypedCommon<T, T['locale'] | undefined> & {
      slug: G;
      data: Partial<Global<T, G>['data']>;
      draft?: boolean;
      autosave?: boolean;
    },
  ): Promise<Global<T, G>['doc']>;
}

/** The methods above are the typed ones; the rest of the Local API keeps its own signatures. */
export const TYPED_METHODS = [
  'find',
  'findByID',
  'count',
  'create',
  'duplicate',
  'update',
  'delete',
  'findGlobal',
  'updateGlobal',
] as const;
