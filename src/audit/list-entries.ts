/**
 * `GET /audit-log` (docs/audit-log.md): admins read entries in the list shape, newest first unless `sort`
 * says otherwise, filtered by `where` on any of their fields. API keys also need an `audit-log:read` scope.
 */
import { scopeAllows } from '../access/key-limits.ts';
import { forbidden, notFound, unauthorized } from '../errors.ts';
import type { Where } from '../config/types.ts';
import type { OperationContext } from '../operation-context.ts';
import { DEFAULT_LIMIT, checkPaging, pageInfo } from '../query/page-info.ts';
import { compileSort } from '../query/sort.ts';
import { compileWhere, TRUSTED } from '../query/where.ts';
import { auditEntity } from './audit-entity.ts';
import { AUDIT_TABLE } from './write-entry.ts';

type EntryRow = {
  id: number;
  at: string;
  action: string;
  collection: string | null;
  global: string | null;
  document: number | null;
  user: number | null;
  apiKey: number | null;
  via: string;
  ip: string | null;
  changes: string;
};

// `createdAt` (the list default sort, and what Payload clients sort by) reads as the entry's time.
const ENTRIES = `(SELECT *, "at" AS "createdAt", "at" AS "updatedAt" FROM "${AUDIT_TABLE}") AS "entries"`;

export function authorizeAuditRead(ctx: OperationContext): void {
  if (!ctx.cms.config.audit) throw notFound('The audit log is turned off.');
  if (ctx.overrideAccess) return;
  if (!ctx.user) throw unauthorized();
  if (ctx.user.role !== 'admin') throw forbidden();
  if (ctx.scopes && !scopeAllows(ctx.scopes, 'audit-log', 'read'))
    throw forbidden('This API key is not allowed to perform this action.');
}

export function presentEntry(row: EntryRow): Record<string, unknown> {
  return {
    id: Number(row.id),
    at: row.at,
    action: row.action,
    ...(row.global !== null ? { global: row.global } : { collection: row.collection }),
    document: row.document === null ? null : Number(row.document),
    user: row.user === null ? null : Number(row.user),
    apiKey: row.apiKey === null ? null : Number(row.apiKey),
    via: row.via,
    ip: row.ip,
    changes: JSON.parse(row.changes),
  };
}

export type ListEntriesArgs = { where?: Where; sort?: string; limit?: number; page?: number };

export async function listAuditEntries(ctx: OperationContext, args: ListEntriesArgs = {}) {
  authorizeAuditRead(ctx);
  const { store } = ctx.cms;
  const limit = args.limit ?? DEFAULT_LIMIT;
  const page = args.page ?? 1;
  checkPaging(limit, page);
  const filter = compileWhere(store.dialect, auditEntity, args.where, null, TRUSTED);
  // Newest first by id: ids follow time, and the primary key needs no index of its own.
  const order = compileSort(store.dialect, auditEntity, args.sort ?? '-id', null, TRUSTED);
  const whereSQL = filter ? ` WHERE ${filter.sql}` : '';
  const params = filter?.params ?? [];
  const total = (await store.get<{ n: number }>(
    `SELECT CAST(count(*) AS INTEGER) AS "n" FROM ${ENTRIES}${whereSQL}`,
    params,
  ))!.n;
  const rows =
    total === 0
      ? []
      : await store.all<EntryRow>(`SELECT * FROM ${ENTRIES}${whereSQL} ORDER BY ${order} LIMIT ? OFFSET ?`, [
          ...params,
          limit,
          (page - 1) * limit,
        ]);
  return { docs: rows.map(presentEntry), ...pageInfo(Number(total), limit, page) };
}
