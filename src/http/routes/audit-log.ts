/** `GET /audit-log`: the admins' read of every write (docs/audit-log.md). Read-only; no path when `audit: false`. */
import { RouteList } from './route-list.ts';
import type { CMS } from '../../cms.ts';
import { readOptions } from '../../query/request-options.ts';
import { listAuditEntries } from '../../audit/list-entries.ts';
import { methods } from '../handle.ts';

export function auditLogRoutes(cms: CMS) {
  if (!cms.config.audit) return new RouteList();
  return new RouteList().all(
    '/audit-log',
    methods(cms, {
      GET: async ({ ctx, query }) => {
        const { where, sort, limit, page } = readOptions(query, cms.config);
        return {
          body: await listAuditEntries(ctx, { where, sort, limit, page }),
          headers: { 'cache-control': 'no-store' },
        };
      },
    }),
  );
}
