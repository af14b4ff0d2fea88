/** SQLite's side of every SQL difference (see Dialect in ../store.ts). JSON lives in text columns. */
import { sqliteSearchSQL } from './search-sql.ts';
import { rowsCounter, type Dialect } from '../store.ts';

/** `$."a"."b"`: segments come from the config; quotes are escaped for the path and for the SQL string. */
const jsonPath = (path: readonly string[]) =>
  `'$${path
    .map((p) => `."${p.replaceAll('"', '\\"')}"`)
    .join('')
    .replaceAll("'", "''")}'`;

/** A checked finite number as SQL text, parenthesised so a minus sign never meets another. */
function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new Error('not a finite number');
  return `(${String(value)})`;
}

/** Haversine with SQLite's math functions (built into bun:sqlite); `min` keeps rounding from leaving asin's domain. */
function distanceMeters(point: string, lng: number, lat: number): string {
  const pLng = `json_extract(${point}, '$[0]')`;
  const pLat = `json_extract(${point}, '$[1]')`;
  const [x, y] = [numberLiteral(lng), numberLiteral(lat)];
  return `(2 * 6371008.8 * asin(min(1, sqrt(power(sin(radians(${pLat} - ${y}) / 2), 2) + cos(radians(${y})) * cos(radians(${pLat})) * power(sin(radians(${pLng} - ${x}) / 2), 2)))))`;
}

const sqlString = (value: string) => `'${value.replaceAll("'", "''")}'`;
const CHANGE_OPERATIONS = ['insert', 'update', 'delete'] as const;

export const sqliteDialect: Dialect = {
  engine: 'sqlite',
  jsonGet: (expr, path) => (path.length ? `json_extract(${expr}, ${jsonPath(path)})` : expr),
  // json_extract already answers SQL values (text, integer, real), so the kind needs no cast.
  jsonValue: (expr, path) => (path.length ? `json_extract(${expr}, ${jsonPath(path)})` : expr),
  jsonArrayLength: (expr) => `json_array_length(${expr})`,
  jsonItems: (expr) => `json_each(${expr})`,
  distanceMeters,
  // SQLite's LIKE ignores case (ASCII), which is what `like` promises.
  likeInsensitive: (expr) => `${expr} LIKE ? ESCAPE '\\'`,
  inList: (expr, values) => ({ sql: `${expr} IN (SELECT value FROM json_each(?))`, params: [JSON.stringify(values)] }),
  // Claims are single UPDATE statements under the database's one write lock: nothing to skip.
  skipLocked: '',
  search: sqliteSearchSQL,
  orderedAppend: null,
  lockTable: () => null,
  tableExists: (table) => ({ sql: `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`, params: [table] }),
  // AUTOINCREMENT keeps the highest id ever given in sqlite_sequence.
  lastIdGiven: (table) => ({ sql: 'SELECT "seq" AS "last" FROM sqlite_sequence WHERE "name" = ?', params: [table] }),
  // SQLite triggers run per row; one per operation, named so that the insert one stands for all three
  // (they are made in one transaction).
  changeTriggers: (table) =>
    CHANGE_OPERATIONS.flatMap((op) => {
      const on = `"${table.replaceAll('"', '""')}"`;
      const bump = (prefix: string, name: string) =>
        `CREATE TRIGGER IF NOT EXISTS "${`${prefix}${table}_${op}`.replaceAll('"', '""')}" AFTER ${op.toUpperCase()} ON ${on} BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES (${sqlString(name)}, 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END`;
      return [bump('_cms_changes_', table), bump('_cms_rows_', rowsCounter(table))];
    }),
  // NOT INDEXED: the walk stays on the id range, whatever index the filter could use.
  rowsById: (table) => `"${table.replaceAll('"', '""')}" NOT INDEXED`,
  lockRow: '',
  // Ready: both counters' triggers (a database made by an older version has the first only).
  tablesWithChangeTriggers: `SELECT "tbl_name" AS "table" FROM sqlite_master WHERE "type" = 'trigger' AND "name" = '_cms_rows_' || "tbl_name" || '_insert'
    AND "tbl_name" IN (SELECT "tbl_name" FROM sqlite_master WHERE "type" = 'trigger' AND "name" = '_cms_changes_' || "tbl_name" || '_insert')`,
  databaseSize: 'SELECT page_count * page_size AS "bytes" FROM pragma_page_count(), pragma_page_size()',
  uniqueViolation(error) {
    const message = error instanceof Error ? error.message : '';
    return /UNIQUE constraint failed: [^.]+\.(\w+)/.exec(message)?.[1] ?? null;
  },
  encodeJSON: (value) => (value === undefined || value === null ? null : JSON.stringify(value)),
  decodeJSON: (value) => (typeof value === 'string' ? JSON.parse(value) : null),
  boolean: (value) => (value ? 1 : 0),
};
