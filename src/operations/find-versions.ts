/**
 * Versions of a document or global: listed newest first (list shape; `where` and `sort` over the version
 * records as in version-records.ts, like Payload's), or one by id (a version of another document is a 404).
 */
import { notFound } from '../errors.ts';
import type { Where } from '../config/types.ts';
import { countRows, selectRows } from '../db/documents.ts';
import { andParts } from '../db/store.ts';
import { DEFAULT_LIMIT } from '../query/request-options.ts';
import { checkPaging, pageInfo } from '../query/page-info.ts';
import { findVersion, type VersionRow } from '../versions/store.ts';
import { VERSION_RECORDS, versionRecordsOrder, versionRecordsWhere } from './steps/version-records.ts';
import { loadForUpdate, type DocumentRef } from './steps/document-target.ts';
import { parseId } from './steps/entities.ts';
import { presentVersions } from './steps/present-version.ts';
import type { OperationContext } from '../operation-context.ts';

/** A page of version records. `author`: add who saved each version to the records (`?author=true`). */
export type VersionListArgs = {
  where?: Where;
  sort?: string;
  limit?: number;
  page?: number;
  depth?: number;
  author?: boolean;
};
export type FindVersionsArgs = DocumentRef & VersionListArgs;
export type FindVersionArgs = DocumentRef & { version: number | string; depth?: number; author?: boolean };

export async function findVersions(ctx: OperationContext, args: FindVersionsArgs) {
  const limit = args.limit ?? DEFAULT_LIMIT;
  const page = args.page ?? 1;
  checkPaging(limit, page);
  const { entity, owner } = await loadForUpdate(ctx, args, { drafts: true });
  const { dialect } = ctx.cms.store;
  const where = andParts([
    { sql: `"kind" = ? AND "slug" = ? AND "parent" = ?`, params: [owner.entity.kind, owner.entity.slug, owner.parent] },
    versionRecordsWhere(dialect, args.where),
  ]);
  const orderBy = versionRecordsOrder(dialect, args.sort, '-id');
  const totalDocs = await countRows(ctx.cms.store, VERSION_RECORDS, where);
  const rows = totalDocs
    ? ((await selectRows(ctx.cms.store, VERSION_RECORDS, where, orderBy, limit, (page - 1) * limit)) as VersionRow[])
    : [];
  return {
    docs: await presentVersions(ctx, entity, rows, args.depth ?? 1, args.author),
    ...pageInfo(totalDocs, limit, page),
  };
}

export async function findVersionByID(ctx: OperationContext, args: FindVersionArgs): Promise<Record<string, unknown>> {
  const { entity, owner } = await loadForUpdate(ctx, args, { drafts: true });
  const row = await findVersion(ctx.cms.store, owner, parseVersionId(args.version));
  if (!row) throw notFound('Version not found.');
  return (await presentVersions(ctx, entity, [row], args.depth ?? 1, args.author))[0];
}

export function parseVersionId(id: unknown): number {
  try {
    return parseId(id);
  } catch {
    throw notFound('Version not found.');
  }
}
