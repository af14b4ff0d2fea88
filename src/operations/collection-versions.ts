/**
 * Versions across a collection, at Payload's paths (docs/payload-compatibility.md): `GET /:collection/versions` lists the
 * version records of every document the caller may update (`where[parent][equals]=<id>` narrows to one),
 * `GET /:collection/versions/:version` reads one, and restoring one is the document's own restore.
 * `where` and `sort` reach the record's own fields (version-records.ts).
 */
import { notFound } from '../errors.ts';
import { countRows, selectRows } from '../db/documents.ts';
import { compileWhere, quote, TRUSTED } from '../query/where.ts';
import { VERSION_RECORDS, versionRecordsOrder, versionRecordsWhere } from './steps/version-records.ts';
import { DEFAULT_LIMIT } from '../query/request-options.ts';
import { checkPaging, pageInfo } from '../query/page-info.ts';
import { checkAccess } from '../access/check-access.ts';
import { findCollectionVersion } from '../versions/store.ts';
import { andParts } from '../db/store.ts';
import { getCollection } from './steps/entities.ts';
import { loadForUpdate, requireDrafts } from './steps/document-target.ts';
import { parseVersionId, type VersionListArgs } from './find-versions.ts';
import { presentVersions } from './steps/present-version.ts';
import { restoreVersion } from './restore-version.ts';
import { localeOf, type OperationContext } from '../operation-context.ts';

export type FindCollectionVersionsArgs = { collection: string } & VersionListArgs;
export type CollectionVersionArgs = { collection: string; version: number | string; depth?: number; author?: boolean };

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
  const documents = andParts([
    compileWhere(dialect, collection, readWhere, locale, TRUSTED),
    compileWhere(dialect, collection, updateWhere, locale, TRUSTED),
  ]);
  const where = andParts([
    { sql: `"kind" = 'collection' AND "slug" = ?`, params: [collection.slug] },
    {
      sql: `"parent" IN (SELECT "id" FROM ${quote(collection.table)}${documents ? ` WHERE ${documents.sql}` : ''})`,
      params: documents?.params ?? [],
    },
    versionRecordsWhere(dialect, args.where),
  ]);
  const orderBy = versionRecordsOrder(dialect, args.sort);
  const totalDocs = await countRows(ctx.cms.store, VERSION_RECORDS, where);
  const rows = totalDocs
    ? await selectRows(ctx.cms.store, VERSION_RECORDS, where, orderBy, limit, (page - 1) * limit)
    : [];
  return {
    docs: await presentVersions(ctx, collection, rows as never, args.depth ?? 1, args.author),
    ...pageInfo(totalDocs, limit, page),
  };
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
