/** `GET /releases` (list shape, `where`, `sort`, paging; newest first) and `GET /releases/:id`. */
import type { Where } from '../../config/types.ts';
import { DEFAULT_LIMIT, checkPaging, pageInfo } from '../../query/page-info.ts';
import { compileSort } from '../../query/sort.ts';
import { compileWhere, TRUSTED } from '../../query/where.ts';
import { releaseEntity } from '../../releases/release-entity.ts';
import { RELEASES_TABLE, type ReleaseRow } from '../../releases/store.ts';
import { authorizeReleases } from './release-access.ts';
import { loadRelease, releaseRecord } from './load-release.ts';
import type { OperationContext } from '../../operation-context.ts';

export type FindReleasesArgs = { where?: Where; sort?: string; limit?: number; page?: number };

export async function findReleases(ctx: OperationContext, args: FindReleasesArgs = {}) {
  await authorizeReleases(ctx, 'read');
  const { store } = ctx.cms;
  const limit = args.limit ?? DEFAULT_LIMIT;
  const page = args.page ?? 1;
  checkPaging(limit, page);
  const filter = compileWhere(store.dialect, releaseEntity, args.where, null, TRUSTED);
  const order = compileSort(store.dialect, releaseEntity, args.sort ?? '-id', null, TRUSTED);
  const whereSQL = filter ? ` WHERE ${filter.sql}` : '';
  const params = filter?.params ?? [];
  const total = (await store.get<{ n: number }>(
    `SELECT CAST(count(*) AS INTEGER) AS "n" FROM "${RELEASES_TABLE}"${whereSQL}`,
    params,
  ))!.n;
  const rows =
    Number(total) === 0
      ? []
      : await store.all<ReleaseRow>(`SELECT * FROM "${RELEASES_TABLE}"${whereSQL} ORDER BY ${order} LIMIT ? OFFSET ?`, [
          ...params,
          limit,
          (page - 1) * limit,
        ]);
  const docs = [];
  for (const row of rows) docs.push(await releaseRecord(ctx, row));
  return { docs, ...pageInfo(Number(total), limit, page) };
}

export async function findReleaseByID(ctx: OperationContext, id: unknown): Promise<Record<string, unknown>> {
  await authorizeReleases(ctx, 'read');
  return releaseRecord(ctx, await loadRelease(ctx.cms.store, id));
}
