/**
 * Versions across a collection, at Payload's paths (docs/payload-compatibility.md): `GET /:collection/versions` lists the
 * version records of every document the caller may update (`where[parent][equals]=<id>` narrows to one),
 * `GET /:collection/versions/:version` reads one, and restoring one is the document's own restore.
 * `where` and `sort` reach the record's own fields: `id`, `parent`, `status` (also `_status`,
 * `version.status`, `version._status`), `latest`, `author` (a user id), `createdAt`, `updatedAt`.
 */
import { notFound } from '../errors.ts';
import type { Entity, SanitizedField, Where } from '../config/types.ts';
import { countRows, selectRows } from '../db/documents.ts';
import { compileSort, compileWhere, quote, TRUSTED } from '../query/where.ts';
import { DEFAULT_LIMIT } from '../query/request-options.ts';
import { checkPaging, pageInfo } from '../query/page-info.ts';
import { checkAccess } from '../access/check-access.ts';
import { findCollectionVersion } from '../versions/store.ts';
import { andParts } from '../db/store.ts';
import { getCollection } from './entities.ts';
import { loadForUpdate, requireDrafts } from './document-target.ts';
import { parseVersionId } from './find-versions.ts';
import { presentVersions } from './present-version.ts';
import { restoreVersion } from './restore-version.ts';
import { localeOf, type OperationContext } from './context.ts';

export type FindCollectionVersionsArgs = { collection: string; where?: Where; sort?: string; limit?: number; page?: number; depth?: number; author?: boolean };
export type CollectionVersionArgs = { collection: string; version: number | string; depth?: number; author?: boolean };

const column = (name: string, type: SanitizedField['type']): SanitizedField => ({ name, type, path: name, localized: false });
/** The version table seen as an entity, so `where` and `sort` compile through the one query compiler. */
const VERSION_RECORDS = {
  kind: 'global', slug: '_cms_versions', table: '_cms_versions', drafts: false, maxVersions: 0,
  fields: [column('parent', 'number'), column('status', 'text'), column('latest', 'checkbox'), column('author', 'number')],
  fieldsByName: new Map(), hooks: {},
} as unknown as Entity;
const STATUS_ALIASES = new Set(['_status', 'version.status', 'version._status']);

export async function findCollectionVersions(ctx: OperationContext, args: FindCollectionVersionsArgs) {
  const collection = getCollection(ctx.cms, args.collection);
  requireDrafts(collection);
  const limit = args.limit ?? DEFAULT_LIMIT;
  const page = args.page ?? 1;
  checkPaging(limit, page);
  // The documents the caller may update: read filter (what it can see) and update filter together.
  const { dialect } = ctx.cms.store;
  const locale = localeOf(ctx);
  const readWhere = await checkAccess(ctx, collection, 'read');
  const updateWhere = await checkAccess(ctx, collection, 'update');
  const documents = andParts([compileWhere(dialect, collection, readWhere, locale, TRUSTED), compileWhere(dialect, collection, updateWhere, locale, TRUSTED)]);
  const where = andParts([
    { sql: `"kind" = 'collection' AND "slug" = ?`, params: [collection.slug] },
    { sql: `"parent" IN (SELECT "id" FROM ${quote(collection.table)}${documents ? ` WHERE ${documents.sql}` : ''})`, params: documents?.params ?? [] },
    compileWhere(dialect, VERSION_RECORDS, renameStatus(args.where), null, TRUSTED),
  ]);
  const orderBy = compileSort(dialect, VERSION_RECORDS, args.sort && STATUS_ALIASES.has(args.sort.replace(/^-/, '')) ? args.sort.replace(/[^-].*/, 'status') : args.sort, null, TRUSTED);
  const totalDocs = await countRows(ctx.cms.store, VERSION_RECORDS, where);
  const rows = totalDocs ? await selectRows(ctx.cms.store, VERSION_RECORDS, where, orderBy, limit, (page - 1) * limit) : [];
  return { docs: await presentVersions(ctx, collection, rows as never, args.depth ?? 1, args.author), ...pageInfo(totalDocs, limit, page) };
}

/** One version record; its document must be one the caller may update (else 404/401/403 as the nested route). */
export async function findCollectionVersionByID(ctx: OperationContext, args: CollectionVersionArgs) {
  const { collection, row } = await versionOf(ctx, args);
  return (await presentVersions(ctx, collection, [row], args.depth ?? 1, args.author))[0];
}

/** Restores a version: `…/:id/versions/:version/restore` on the document it belongs to. */
export async function restoreCollectionVersion(ctx: OperationContext, args: CollectionVersionArgs) {
  const { collection, row } = await versionOf(ctx, args);
  return restoreVersion(ctx, { collection: collection.slug, id: row.parent, version: row.id, depth: args.depth });
}

async function versionOf(ctx: OperationContext, args: CollectionVersionArgs) {
  const collection = getCollection(ctx.cms, args.collection);
  requireDrafts(collection);
  const row = await findCollectionVersion(ctx.cms.store, collection, parseVersionId(args.version));
  if (!row) throw notFound('Version not found.');
  await loadForUpdate(ctx, { collection: collection.slug, id: row.parent }, { drafts: true });
  return { collection, row };
}

/** Payload's spellings of the record's status, at any depth of and/or. */
function renameStatus(where: Where | undefined): Where | undefined {
  if (!where || typeof where !== 'object') return where;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(where)) {
    if ((key === 'and' || key === 'or') && Array.isArray(value)) out[key] = value.map((w) => renameStatus(w as Where));
    else out[STATUS_ALIASES.has(key) ? 'status' : key] = value;
  }
  return out as Where;
}
