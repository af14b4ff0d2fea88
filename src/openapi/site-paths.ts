/** Routes across the whole site: search over every searchable collection, and the audit log (docs/search.md, docs/audit-log.md). */
import type { SanitizedConfig } from '../config/types.ts';
import { listOf, ref } from './components.ts';
import { json, operation, parameter, type Paths } from './operation.ts';
import { query } from './operations-paths.ts';

export function sitePaths(config: SanitizedConfig): Paths {
  const paths: Paths = {
    '/search': {
      get: operation('get', '/search', {
        summary: 'Search across collections, best match first (access rules as for lists)',
        tags: ['search'],
        parameters: [
          query('q', { type: 'string' }, 'The words to find; `"quoted phrases"` match as phrases.'),
          query('collections', { type: 'string' }, 'Comma-separated slugs; all searchable collections by default.'),
          parameter('limit'),
          parameter('draft'),
        ],
        ok: { 200: json(ref('SearchResult')) },
        errors: [400, 401, 403],
      }),
    },
  };
  // With `audit: false` the path does not exist.
  if (config.audit) {
    paths['/audit-log'] = {
      get: operation('get', '/audit-log', {
        summary: 'Audit log entries, newest first (admins; keys need audit-log:read)',
        tags: ['audit-log'],
        parameters: [parameter('where'), parameter('sort'), parameter('limit'), parameter('page')],
        ok: { 200: json(listOf(ref('AuditEntry'))) },
        errors: [400, 401, 403],
      }),
    };
  }
  return paths;
}
