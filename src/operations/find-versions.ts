/** Versions of a document or global: listed newest first (list shape), or one by id (a version of another document is a 404). */
import { notFound } from '../errors.ts';
import { DEFAULT_LIMIT } from '../query/request-options.ts';
import { checkPaging, pageInfo } from '../query/page-info.ts';
import { countVersions, findVersion, listVersions } from '../versions/store.ts';
import { loadForUpdate, type DocumentRef } from './document-target.ts';
import { parseId } from './entities.ts';
import { presentVersions } from './present-version.ts';
import type { OperationContext } from './context.ts';

/** `author`: add who saved each version to the records (`?author=true`). */
export type FindVersionsArgs = DocumentRef & { limit?: number; page?: number; depth?: number; author?: boolean };
export type FindVersionArgs = DocumentRef & { version: number | string; depth?: number; author?: boolean };

export async function findVersions(ctx: OperationContext, args: FindVersionsArgs) {
  const limit = args.limit ?? DEFAULT_LIMIT;
  const page = args.page ?? 1;
  checkPaging(limit, page);
  const { entity, owner } = await loadForUpdate(ctx, args, { drafts: true });
  const totalDocs = await countVersions(ctx.cms.store, owner);
  const rows = totalDocs ? await listVersions(ctx.cms.store, owner, limit, (page - 1) * limit) : [];
  return { docs: await presentVersions(ctx, entity, rows, args.depth ?? 1, args.author), ...pageInfo(totalDocs, limit, page) };
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
