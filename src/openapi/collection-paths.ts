/**
 * The paths of one collection: the list, create, read, update, delete, preview, versions, drafts and
 * schedule routes, and Payload's count (docs/payload-compatibility.md), bulk writes by `where`, Payload's version paths and the
 * method-override read. Upload collections (`media`) take multipart bodies and serve their files.
 */
import type { SanitizedCollection, SanitizedConfig } from '../config/types.ts';
import { isUploadCollection } from '../config/upload-collections.ts';
import { docAnswer, listOf, ref, statusProperties, versionRecord } from './components.ts';
import { localesOf, objectOf, type Schema } from './field-schemas.ts';
import { schemaName } from './names.ts';
import { json, operation, parameter, pathParameter, type Paths } from './operation.ts';
import { draftPaths } from './draft-paths.ts';
import { lockPaths } from './lock-paths.ts';
import { isDuplicable } from '../config/duplicable.ts';

const overrideHeader = (required: boolean) => ({
  name: 'X-HTTP-Method-Override',
  in: 'header',
  required,
  schema: { enum: ['GET'] },
  description:
    'Also `X-Payload-HTTP-Method-Override`. `GET` makes this POST a read that saves nothing (docs/payload-compatibility.md).',
});

export function localeParameters(config: SanitizedConfig) {
  return config.localization ? [parameter('locale'), parameter('fallbackLocale')] : [];
}

/**
 * The document as a reader gets it: `id`, the fields, timestamps, and `status`/`_status` with drafts.
 * `unsaved`: a new document's preview has null for its id and timestamps. `global`: a global has no id,
 * and null timestamps until its first save.
 */
export function documentSchema(
  config: SanitizedConfig,
  entity: { fields: SanitizedCollection['fields']; drafts: boolean },
  kind: 'stored' | 'unsaved' | 'global',
  extra: Record<string, Schema> = {},
): Schema {
  const time = { type: kind === 'stored' ? 'string' : ['string', 'null'] };
  const meta: Record<string, Schema> = {
    ...(kind === 'global' ? {} : { id: { type: kind === 'stored' ? 'integer' : ['integer', 'null'] } }),
    ...extra,
    ...statusProperties(entity.drafts),
    createdAt: time,
    updatedAt: time,
  };
  const schema = objectOf(entity.fields, 'read', meta, localesOf(config));
  return { ...schema, required: kind === 'global' ? ['createdAt', 'updatedAt'] : ['id', 'createdAt', 'updatedAt'] };
}

/** The component schemas of a collection: its document, and its create and update bodies. */
export function collectionSchemas(config: SanitizedConfig, collection: SanitizedCollection): Record<string, Schema> {
  const name = schemaName(collection.slug);
  const media = isUploadCollection(collection);
  // Media's sizes are the configured image sizes (each only for images large enough), not the stored JSON.
  const size = {
    type: 'object',
    required: ['filename', 'width', 'height'],
    properties: {
      filename: { type: 'string' },
      width: { type: 'integer' },
      height: { type: 'integer' },
      filesize: { type: 'integer' },
      mimeType: { type: 'string' },
      url: { type: ['string', 'null'] },
    },
  };
  const sizes = Object.fromEntries((collection.upload?.imageSizes ?? []).map((s) => [s.name, size]));
  const extraRead: Record<string, Schema> = media
    ? {
        url: { type: ['string', 'null'] },
        sizes: { anyOf: [{ type: 'object', properties: sizes, additionalProperties: false }, { type: 'null' }] },
      }
    : {};
  const read = media ? { ...collection, fields: collection.fields.filter((f) => f.name !== 'sizes') } : collection;
  const status = statusProperties(collection.drafts);
  const password: Record<string, Schema> =
    collection.builtIn === 'users' ? { password: { type: 'string', minLength: 8, writeOnly: true } } : {};
  const writable = collection.fields.filter((f) => !(f.admin as { readOnly?: boolean } | undefined)?.readOnly);
  return {
    [name]: documentSchema(config, read, 'stored', extraRead),
    [`${name}Unsaved`]: documentSchema(config, read, 'unsaved', extraRead),
    [`${name}Create`]: objectOf(writable, 'write', { ...status, ...password }),
    [`${name}Update`]: { ...objectOf(writable, 'write', { ...status, ...password }), required: undefined },
  };
}

export function collectionPaths(config: SanitizedConfig, collection: SanitizedCollection): Paths {
  const slug = collection.slug;
  const name = schemaName(slug);
  const tags = [slug];
  const base = `/${slug}`;
  const locale = localeParameters(config);
  const id = pathParameter('id', { type: 'integer', minimum: 1 });
  // With releases on, reads take `release=` (and a release's `preview` token).
  const release = config.releases ? [parameter('release')] : [];
  const readParameters = [
    ...release,
    parameter('depth'),
    parameter('draft'),
    parameter('select'),
    parameter('populate'),
    parameter('richText'),
    ...locale,
  ];
  const listParameters = [
    ...(collection.search ? [parameter('search')] : []),
    parameter('where'),
    parameter('sort'),
    parameter('limit'),
    parameter('page'),
    ...readParameters,
    parameter('pagination'),
    ...(config.releases ? [parameter('preview')] : []),
  ];
  const writeParameters = [parameter('depth'), parameter('draft'), ...locale];
  const doc = ref(name);
  const bulk = {
    type: 'object',
    required: ['docs', 'errors', 'message'],
    properties: {
      docs: { type: 'array', items: doc },
      errors: {
        type: 'array',
        items: { type: 'object', required: ['id', 'message'], properties: { id: {}, message: { type: 'string' } } },
      },
      message: { type: 'string' },
    },
  };
  const upload = isUploadCollection(collection);
  const created =
    collection.builtIn === 'api-keys'
      ? docAnswer(doc, { key: { type: 'string', description: 'The key, shown only now.' } })
      : collection.builtIn === 'users'
        ? docAnswer(doc, { inviteUrl: { type: 'string' } })
        : docAnswer(doc);
  const uploadBody = {
    type: 'object',
    required: ['file'],
    properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' }, alt: { type: 'string' } },
  };

  const paths: Paths = {
    [base]: {
      get: {
        ...operation('get', base, {
          summary: `List ${slug}`,
          tags,
          parameters: listParameters,
          ok: { 200: json(listOf(doc)) },
          errors: [400, 401, 403],
          description:
            'Also answered to `POST` with `X-HTTP-Method-Override: GET` (or `X-Payload-HTTP-Method-Override`), the query read from the body (form or JSON) over the URL query, for queries too long for a URL.',
        }),
        'x-method-override': { method: 'POST', header: 'X-HTTP-Method-Override: GET' },
      },
      // Create only: the method-override list read answers as the GET above, so a client's create has one answer type.
      post: operation('post', base, {
        summary: upload ? `Upload a file to ${slug}` : `Create a document in ${slug}`,
        tags,
        parameters: writeParameters,
        body: upload ? uploadBody : ref(`${name}Create`),
        bodyType: upload ? 'multipart/form-data' : 'application/json',
        ok: { 201: json(created, 'Created') },
        errors: upload ? [400, 401, 403, 413, 415] : [400, 401, 403],
      }),
      patch: operation('patch', base, {
        summary: `Update every ${slug} document matching where`,
        tags,
        parameters: [parameter('where'), ...writeParameters],
        body: ref(`${name}Update`),
        ok: { 200: json(bulk) },
        errors: [400, 401, 403],
      }),
      delete: operation('delete', base, {
        summary: `Delete every ${slug} document matching where`,
        tags,
        parameters: [parameter('where'), ...writeParameters],
        ok: { 200: json(bulk) },
        errors: [400, 401, 403],
      }),
    },
    [`${base}/count`]: {
      get: operation('get', `${base}/count`, {
        summary: `Count ${slug}`,
        tags,
        parameters: [
          parameter('where'),
          parameter('draft'),
          ...release,
          ...(config.releases ? [parameter('preview')] : []),
          ...locale,
        ],
        ok: { 200: json({ type: 'object', required: ['totalDocs'], properties: { totalDocs: { type: 'integer' } } }) },
        errors: [400, 401, 403],
      }),
    },
    [`${base}/{id}`]: {
      get: operation('get', `${base}/{id}`, {
        summary: `Read one ${slug} document`,
        tags,
        parameters: [id, ...readParameters, parameter('preview')],
        ok: { 200: json(doc) },
        errors: [400, 401, 403, 404],
      }),
      post: operation('post', `${base}/{id}`, {
        summary: `Read one ${slug} document with unsaved values merged over it (method override)`,
        tags,
        parameters: [id, overrideHeader(true)],
        security: [{}, { bearerSession: [] }, { apiKey: [] }, { sessionCookie: [] }],
        body: {
          type: 'object',
          properties: {
            data: { type: 'object' },
            depth: { type: 'integer' },
            locale: { type: 'string' },
            draft: { type: 'boolean' },
          },
        },
        ok: { 200: json(doc) },
        errors: [400, 401, 403, 404],
      }),
      patch: operation('patch', `${base}/{id}`, {
        summary: `Update one ${slug} document`,
        tags,
        parameters: [id, ...writeParameters],
        body: ref(`${name}Update`),
        ok: { 200: json(docAnswer(doc)) },
        errors: [400, 401, 403, 404],
      }),
      delete: operation('delete', `${base}/{id}`, {
        summary: `Delete one ${slug} document`,
        tags,
        parameters: [id],
        ok: { 200: json(docAnswer(doc)) },
        errors: [400, 401, 403, 404],
      }),
    },
    [`${base}/preview`]: {
      post: operation('post', `${base}/preview`, {
        summary: `Live preview of a new ${slug} document`,
        tags,
        parameters: [parameter('depth'), ...locale],
        body: { type: 'object' },
        ok: { 200: json(previewAnswer(ref(`${name}Unsaved`))) },
        errors: [400, 401, 403],
      }),
    },
    [`${base}/{id}/preview`]: {
      post: operation('post', `${base}/{id}/preview`, {
        summary: `Live preview of unsaved changes to a ${slug} document`,
        tags,
        parameters: [id, parameter('depth'), ...locale],
        body: { type: 'object' },
        ok: { 200: json(previewAnswer(doc)) },
        errors: [400, 401, 403, 404],
      }),
    },
  };
  Object.assign(paths, lockPaths(`${base}/{id}`, tags, [id]));
  if (isDuplicable(collection)) {
    paths[`${base}/{id}/duplicate`] = {
      post: operation('post', `${base}/{id}/duplicate`, {
        summary: `Copy a ${slug} document into a new one (a draft where the collection has drafts)`,
        tags,
        parameters: [id, parameter('depth'), ...locale],
        body: ref(`${name}Update`),
        ok: { 200: json(docAnswer(doc)) },
        errors: [400, 401, 403, 404],
      }),
    };
  }
  if (upload) {
    paths[`${base}/file/{name}`] = {
      get: operation('get', `${base}/file/{name}`, {
        summary: 'A stored file (public; long-lived caching, sandboxing CSP, byte ranges)',
        tags,
        parameters: [pathParameter('name')],
        security: [{}],
        ok: {
          200: {
            description: 'The file',
            content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
          },
        },
        errors: [404],
      }),
    };
  }
  if (collection.drafts) {
    const record = versionRecord(doc);
    Object.assign(paths, {
      [`${base}/versions`]: {
        get: operation('get', `${base}/versions`, {
          summary: `Versions across ${slug} (Payload's path)`,
          tags,
          parameters: [
            parameter('where'),
            parameter('sort'),
            parameter('limit'),
            parameter('page'),
            parameter('depth'),
            ...locale,
          ],
          ok: { 200: json(listOf(record)) },
          errors: [400, 401, 403],
        }),
      },
      [`${base}/versions/{version}`]: {
        get: operation('get', `${base}/versions/{version}`, {
          summary: "One version (Payload's path)",
          tags,
          parameters: [pathParameter('version'), parameter('depth'), ...locale],
          ok: { 200: json(record) },
          errors: [401, 403, 404],
        }),
        post: operation('post', `${base}/versions/{version}`, {
          summary: "Restore a version (Payload's path)",
          tags,
          parameters: [pathParameter('version'), parameter('depth')],
          ok: { 200: json(docAnswer(doc)) },
          errors: [401, 403, 404],
        }),
      },
      ...draftPaths(`${base}/{id}`, { tags, target: [id], doc, record, locale }),
    });
  }
  return paths;
}

export const previewAnswer = (doc: Schema): Schema => ({
  type: 'object',
  required: ['doc', 'url'],
  properties: { doc, url: { type: 'string' } },
});
