/**
 * Output types: one object type per collection (`Post`) and global (`Settings`) with its system fields,
 * the paginated list (`Posts`), and version records (`PostVersion`). Their fields, nested groups and array
 * rows (`Post_Seo`) included, are output fields (output-fields.ts).
 */
import { isUploadCollection } from '../config/upload-collections.ts';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import type { Entity, ImageSize, SanitizedField } from '../config/types.ts';
import { outputFields } from './output-fields.ts';
import { combineParentName, toWords } from './names.ts';
import { GraphQLDateTime } from './scalars.ts';
import type { SchemaBuild } from './build-state.ts';
import type { GraphQLRequest } from './request-context.ts';
import { resolveRelationship } from './resolve-relationship.ts';

type Fields = GraphQLFieldConfigMap<Record<string, unknown>, GraphQLRequest>;

const statusEnum = (name: string, build: SchemaBuild) =>
  build.named(
    `${name}__status`,
    () =>
      new GraphQLEnumType({
        name: `${name}__status`,
        values: { draft: { value: 'draft' }, published: { value: 'published' } },
      }),
  );

/** What every stored document has beside its fields: timestamps, the status of drafts, a media file's URL. */
function systemFields(entity: Entity, name: string, build: SchemaBuild): Fields {
  const out: Fields = { updatedAt: { type: GraphQLDateTime }, createdAt: { type: GraphQLDateTime } };
  if (entity.drafts) out.status = out._status = { type: statusEnum(name, build) };
  if (isUploadCollection(entity)) {
    out.url = { type: GraphQLString };
    if (entity.upload.imageSizes.length) out.sizes = { type: sizesType(entity.upload.imageSizes, name, build) };
  }
  return out;
}

/**
 * An upload collection's `sizes` as Payload types it: `Media_Sizes { thumbnail: Media_Sizes_Thumbnail }`, one
 * field per configured image size (null when the image was too small for it); JSON without image sizes.
 */
function sizesType(sizes: ImageSize[], parent: string, build: SchemaBuild): GraphQLObjectType {
  const name = combineParentName(parent, 'Sizes');
  return build.named(
    name,
    () =>
      new GraphQLObjectType({
        name,
        fields: () =>
          Object.fromEntries(
            sizes.map((size) => [size.name, { type: sizeType(combineParentName(name, toWords(size.name)), build) }]),
          ),
      }),
  );
}

const sizeType = (name: string, build: SchemaBuild) =>
  build.named(
    name,
    () =>
      new GraphQLObjectType({
        name,
        fields: {
          url: { type: GraphQLString },
          width: { type: GraphQLFloat },
          height: { type: GraphQLFloat },
          mimeType: { type: GraphQLString },
          filesize: { type: GraphQLFloat },
          filename: { type: GraphQLString },
        },
      }),
  );

export function documentType(entity: Entity, name: string, build: SchemaBuild, withId = true): GraphQLObjectType {
  return build.named(
    name,
    () =>
      new GraphQLObjectType({
        name,
        fields: () => ({
          ...(withId ? { id: { type: new GraphQLNonNull(GraphQLInt) } } : {}),
          ...outputFields(entity.fields, name, build),
          ...systemFields(entity, name, build),
        }),
      }),
  );
}

/** Payload's page of documents: `{ docs, totalDocs, limit, page, totalPages, pagingCounter, … }`. */
export function paginatedType(name: string, doc: GraphQLOutputType, build: SchemaBuild): GraphQLObjectType {
  return build.named(
    name,
    () =>
      new GraphQLObjectType({
        name,
        fields: {
          docs: { type: new GraphQLList(doc) },
          hasNextPage: { type: GraphQLBoolean },
          hasPrevPage: { type: GraphQLBoolean },
          limit: { type: GraphQLInt },
          nextPage: { type: GraphQLInt },
          offset: { type: GraphQLInt },
          page: { type: GraphQLInt },
          pagingCounter: { type: GraphQLInt },
          prevPage: { type: GraphQLInt },
          totalDocs: { type: GraphQLInt },
          totalPages: { type: GraphQLInt },
        },
      }),
  );
}

/** A version record `{ id, parent, version, status, latest, createdAt, updatedAt }`; `version` is the document as saved then. */
export function versionType(entity: Entity, name: string, build: SchemaBuild): GraphQLObjectType {
  const saved = documentType(entity, `${name}Version_Version`, build, false);
  return build.named(
    `${name}Version`,
    () =>
      new GraphQLObjectType({
        name: `${name}Version`,
        fields: () => ({
          id: { type: new GraphQLNonNull(GraphQLInt) },
          ...(entity.kind === 'collection'
            ? {
                parent: {
                  type: build.docTypes.get(entity.slug)!,
                  resolve: resolveRelationship(parentField(entity.slug)),
                  extensions: { complexity: 10 },
                },
              }
            : {}),
          version: { type: saved },
          status: { type: statusEnum(name, build) },
          latest: { type: GraphQLBoolean },
          createdAt: { type: GraphQLDateTime },
          updatedAt: { type: GraphQLDateTime },
        }),
      }),
  );
}

const parentField = (slug: string): SanitizedField => ({
  name: 'parent',
  type: 'relationship',
  relationTo: slug,
  path: 'parent',
  localized: false,
});
