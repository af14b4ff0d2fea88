/**
 * Scheduled jobs across the site (docs/drafts-and-versions.md): every pending publish / unpublish of every
 * collection and global, soonest first, in the list shape. Admins only (an admin session or an admin's
 * `*` API key): the per-document `…/schedule` stays the route for editors. REST and the Local API call it.
 * Filters: `collection` or `global` (one slug), and with `collection` a `parent` list of document ids,
 * so the admin's list view asks for the badges of a whole page in one request.
 */
import { isFullAdmin } from '../access/key-limits.ts';
import { badRequest, forbidden, unauthorized } from '../errors.ts';
import type { OperationContext } from '../operation-context.ts';
import type { PaginatedDocs } from '../operations/find.ts';
import { DEFAULT_LIMIT } from '../query/request-options.ts';
import { checkPaging, pageInfo } from '../query/page-info.ts';
import { countPendingJobs, listPendingJobs, type PendingFilter } from '../versions/jobs-store.ts';
import { presentJob } from '../operations/steps/present-job.ts';

export type ScheduledJobsArgs = {
  limit?: number;
  page?: number;
  collection?: unknown;
  global?: unknown;
  parent?: unknown;
};

export async function listScheduledJobs(ctx: OperationContext, args: ScheduledJobsArgs = {}): Promise<PaginatedDocs> {
  if (!ctx.overrideAccess) {
    if (!ctx.user) throw unauthorized();
    if (!isFullAdmin(ctx.user, ctx.scopes)) throw forbidden('Scheduled jobs across the site are for admins.');
  }
  const limit = args.limit ?? DEFAULT_LIMIT;
  const page = args.page ?? 1;
  checkPaging(limit, page);
  const filter = readFilter(ctx, args);
  const totalDocs = await countPendingJobs(ctx.cms.store, filter);
  const rows = totalDocs === 0 ? [] : await listPendingJobs(ctx.cms.store, filter, limit, (page - 1) * limit);
  return { docs: rows.map(presentJob), ...pageInfo(totalDocs, limit, page) };
}

const given = (v: unknown) => v !== undefined && v !== '';

function readFilter(ctx: OperationContext, args: ScheduledJobsArgs): PendingFilter {
  const { collectionsBySlug, globalsBySlug } = ctx.cms.config;
  if (given(args.collection) && given(args.global))
    throw badRequest('Give "collection" or "global", not both.', 'global');
  if (given(args.global)) {
    if (typeof args.global !== 'string' || !globalsBySlug.has(args.global))
      throw badRequest(`Unknown global "${String(args.global)}".`, 'global');
    if (given(args.parent)) throw badRequest('"parent" narrows a collection; a global has no documents.', 'parent');
    return { kind: 'global', slug: args.global };
  }
  if (!given(args.collection)) {
    if (given(args.parent)) throw badRequest('"parent" needs "collection".', 'parent');
    return {};
  }
  if (typeof args.collection !== 'string' || !collectionsBySlug.has(args.collection))
    throw badRequest(`Unknown collection "${String(args.collection)}".`, 'collection');
  return {
    kind: 'collection',
    slug: args.collection,
    ...(given(args.parent) ? { parents: readIds(args.parent) } : {}),
  };
}

/** `parent=1,2,3` (or an array, as qs parses `parent[]=`): positive integer ids, at most a page's worth. */
function readIds(value: unknown): number[] {
  const items = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : [];
  const ids = items
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
  if (ids.length === 0 || ids.length > 100 || ids.some((n) => !Number.isSafeInteger(n) || n <= 0)) {
    throw badRequest('"parent" must be a comma-separated list of up to 100 document ids.', 'parent');
  }
  return ids;
}
