/**
 * The version table (`_cms_versions`) seen as an entity, so a `where` and a `sort` over version records
 * compile through the one query compiler. They reach the record's own fields: `id`, `parent`, `status`
 * (also Payload's `_status`, `version.status`, `version._status`), `latest`, `author` (a user id),
 * `createdAt`, `updatedAt`. Used by the versions of a collection and of one document or global.
 */
import type { Entity, SanitizedField, Where } from '../../config/types.ts';
import type { Dialect, SQLPart } from '../../db/store.ts';
import { compileSort } from '../../query/sort.ts';
import { compileWhere, TRUSTED } from '../../query/where.ts';

const column = (name: string, type: SanitizedField['type']): SanitizedField => ({
  name,
  type,
  path: name,
  localized: false,
});
export const VERSION_RECORDS = {
  kind: 'global',
  slug: '_cms_versions',
  table: '_cms_versions',
  drafts: false,
  maxVersions: 0,
  fields: [
    column('parent', 'number'),
    column('status', 'text'),
    column('latest', 'checkbox'),
    column('author', 'number'),
  ],
  fieldsByName: new Map(),
  hooks: {},
} as unknown as Entity;
const STATUS_ALIASES = new Set(['_status', 'version.status', 'version._status']);

/** The caller's `where` over version records (Payload's status spellings taken), or null. */
export function versionRecordsWhere(dialect: Dialect, where: Where | undefined): SQLPart | null {
  return compileWhere(dialect, VERSION_RECORDS, renameStatus(where), null, TRUSTED);
}

/** ORDER BY for the caller's `sort` over version records; `fallback` when none is given. */
export function versionRecordsOrder(dialect: Dialect, sort: string | undefined, fallback?: string): string {
  const asked = sort && STATUS_ALIASES.has(sort.replace(/^-/, '')) ? sort.replace(/[^-].*/, 'status') : sort;
  return compileSort(dialect, VERSION_RECORDS, asked || fallback, null, TRUSTED);
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
