/** Finding one release by the id a caller gave (404 when there is none), and answering it as its record. */
import { badRequest, notFound } from '../../errors.ts';
import type { Queryable } from '../../db/store.ts';
import { findRelease, itemsWithVersions, type ReleaseRow } from '../../releases/store.ts';
import { presentItem, presentRelease, titlePaths } from '../../releases/present-release.ts';
import type { OperationContext } from '../../operation-context.ts';

export function parseReleaseId(id: unknown, what = 'release'): number {
  const n = typeof id === 'number' ? id : typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw badRequest(`Invalid ${what} id.`);
  return n;
}

export async function loadRelease(db: Queryable, id: unknown): Promise<ReleaseRow> {
  const row = await findRelease(db, parseReleaseId(id));
  if (!row) throw notFound('Release not found.');
  return row;
}

export async function releaseRecord(ctx: OperationContext, row: ReleaseRow, db: Queryable = ctx.cms.store) {
  const items = await itemsWithVersions(db, Number(row.id), titlePaths(ctx.cms.config));
  return presentRelease(row, items.map(presentItem));
}
