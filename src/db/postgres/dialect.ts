/**
 * PostgreSQL's side of every SQL difference (see Dialect in ../store.ts), with SQLite's semantics:
 * - JSON lives in jsonb columns (config tables) or JSON text (`_cms_versions.version`); every JSON read
 *   casts its input `::jsonb` (a no-op on jsonb), so both kinds of source read alike.
 * - A JSON null reads as SQL NULL, as `json_extract` answers, so `COALESCE(locale, fallback)` falls through.
 * - Typed reads never fail on a row of another type: a number is read only where `jsonb_typeof` says
 *   number (else NULL), as a cast of a string would stop the whole query.
 * - Booleans are integers 1/0 on both engines (columns, `where` values, versions), so callers and stored
 *   documents need no engine branch; a JSON `true`/`false` reads as 1/0 like SQLite's `json_extract`.
 */
import { postgresSearchSQL } from './search-sql.ts';
import { rowsCounter, type Dialect, type ValueKind } from '../store.ts';

/** `'{"a","b"}'`: a text[] literal of path segments (from the config), quoted for the array and for SQL. */
function pathLiteral(path: readonly string[]): string {
  const array = `{${path.map((p) => `"${p.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(',')}}`;
  return `'${array.replaceAll("'", "''")}'`;
}

const asJson = (expr: string) => `(${expr})::jsonb`;

/** Still JSON; a JSON null becomes SQL NULL. */
function jsonGet(expr: string, path: readonly string[]): string {
  if (path.length === 0) return asJson(expr);
  return `NULLIF(${asJson(expr)} #> ${pathLiteral(path)}, 'null'::jsonb)`;
}

/** The scalar as SQL text: strings without quotes, numbers and booleans as written, objects as JSON text. */
const asText = (expr: string, path: readonly string[]) => `(${asJson(expr)} #>> ${pathLiteral(path)})`;

function typed(json: string, kind: ValueKind): string {
  switch (kind) {
    // float8 (not numeric): Bun.SQL reads numeric back as a string.
    case 'number':
      return `(CASE WHEN jsonb_typeof(${json}) = 'number' THEN (${json})::float8 END)`;
    // Booleans are integers 1/0 here, as json_extract answers them on SQLite (checkboxes in versions).
    case 'integer':
      return `(CASE jsonb_typeof(${json}) WHEN 'number' THEN (${json})::bigint WHEN 'boolean' THEN (${json})::boolean::integer END)`;
    case 'boolean':
      return `(CASE jsonb_typeof(${json}) WHEN 'boolean' THEN (${json})::boolean::integer WHEN 'number' THEN (${json})::integer END)`;
    default:
      throw new Error(`not a typed kind: ${kind}`);
  }
}

function jsonValue(expr: string, path: readonly string[], kind: ValueKind): string {
  if (kind === 'text' || kind === 'date' || kind === 'json') return asText(expr, path);
  return typed(path.length ? `${asJson(expr)} #> ${pathLiteral(path)}` : asJson(expr), kind);
}

/** A checked finite number as SQL text, parenthesised so a minus sign never meets another. */
function numberLiteral(value: number): string {
  if (!Number.isFinite(value)) throw new Error('not a finite number');
  return `(${String(value)}::float8)`;
}

/** Haversine in plain SQL math; `least` keeps rounding from leaving asin's domain; NULL for anything but numbers. */
function distanceMeters(point: string, lng: number, lat: number): string {
  const pLng = typed(`${asJson(point)} -> 0`, 'number');
  const pLat = typed(`${asJson(point)} -> 1`, 'number');
  const [x, y] = [numberLiteral(lng), numberLiteral(lat)];
  return `(2 * 6371008.8 * asin(least(1, sqrt(power(sin(radians(${pLat} - ${y}) / 2), 2) + cos(radians(${y})) * cos(radians(${pLat})) * power(sin(radians(${pLng} - ${x}) / 2), 2)))))`;
}

/** Errno of the SQLSTATE `unique_violation`; Bun.SQL puts SQLSTATEs in `errno`, not `code`. */
const UNIQUE_VIOLATION = '23505';

/**
 * The first column of the violated key: from `detail` ("Key (email)=(a@b) already exists.", names quoted
 * when they need it), else from our index name (`<table>_<columns>_unique`, table-model.ts).
 */
function uniqueViolation(error: unknown): string | null {
  const e = error as { errno?: unknown; detail?: unknown; constraint?: unknown; table?: unknown } | null;
  if (!e || typeof e !== 'object' || e.errno !== UNIQUE_VIOLATION) return null;
  const key = typeof e.detail === 'string' ? /^Key \((.+?)\)=\(/.exec(e.detail)?.[1] : undefined;
  if (key) {
    const first = /^"((?:[^"]|"")*)"|^([^,]+)/.exec(key)!;
    return first[1] !== undefined ? first[1].replaceAll('""', '"') : first[2].trim();
  }
  if (typeof e.constraint === 'string' && typeof e.table === 'string' && e.constraint.startsWith(`${e.table}_`)) {
    return e.constraint.slice(e.table.length + 1).replace(/_(unique|key)$/, '') || null;
  }
  return null;
}

/**
 * A JSON value to bind. Bun.SQL sends an object parameter as its JSON.stringify text (toJSON included), so
 * wrapping every value in one stores jsonb in a jsonb column and JSON text in a text column, exactly what
 * SQLite's JSON text does. Unwrapped it would go wrong: a number or boolean is sent typed (`column is of
 * type jsonb but expression is of type integer`), and a string is JSON text only for a jsonb column.
 */
class JsonParameter {
  constructor(readonly value: unknown) {}
  toJSON() {
    return this.value;
  }
}

export const postgresDialect: Dialect = {
  engine: 'postgres',
  jsonGet,
  jsonValue,
  distanceMeters,
  jsonArrayLength: (expr) =>
    `(CASE WHEN ${expr} IS NULL THEN NULL WHEN jsonb_typeof(${asJson(expr)}) = 'array' THEN jsonb_array_length(${asJson(expr)}) ELSE 0 END)`,
  // jsonb_array_elements names its column `value`, like json_each; anything but an array has no items.
  jsonItems: (expr) =>
    `jsonb_array_elements(CASE WHEN jsonb_typeof(${asJson(expr)}) = 'array' THEN ${asJson(expr)} END)`,
  // Through text so that `like` on a number or JSON value matches as on SQLite instead of failing.
  likeInsensitive: (expr) => `(${expr})::text ILIKE ? ESCAPE '\\'`,
  // One array parameter whose element type PostgreSQL takes from `expr`; any length, one prepared statement.
  inList: (expr, values) => ({ sql: `${expr} = ANY(?)`, params: [values] }),
  // A transaction-level advisory lock (its own key), released at commit or rollback.
  search: postgresSearchSQL,
  orderedAppend: 'SELECT pg_advisory_xact_lock(7265636)',
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  lockTable: (table) => `LOCK TABLE "${table.replaceAll('"', '""')}" IN SHARE ROW EXCLUSIVE MODE`,
  tableExists: (table) => ({
    sql: `SELECT 1 AS "found" FROM pg_tables WHERE schemaname = current_schema() AND tablename = ?`,
    params: [table],
  }),
  // The identity's sequence: `last_value` is null until it gave a first id.
  lastIdGiven: (table) => ({
    sql: `SELECT "last_value" AS "last" FROM pg_sequences WHERE (schemaname || '.' || sequencename) = pg_get_serial_sequence(?, 'id')`,
    params: [`"${table.replaceAll('"', '""')}"`],
  }),
  // Statement-level triggers that count the rows each statement wrote (its transition table), so that, as
  // on SQLite, a table's counter moves by one per row written: a kept count can then tell a create from any
  // other write (src/db/kept-counts.ts). TRUNCATE has no transition table and counts one. Each moves the
  // table's counter and `<table>:rows`, which version rows do not move (src/db/rows-rewritten.ts). They
  // replace the one counting statements that databases made before carry.
  changeTriggers: (table) => {
    const on = `"${table.replaceAll('"', '""')}"`;
    const counters = [table, rowsCounter(table)].map((n) => `'${n.replaceAll("'", "''")}'`);
    return [
      `DROP TRIGGER IF EXISTS "_cms_changes" ON ${on}`,
      `CREATE OR REPLACE FUNCTION cms_count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE n bigint; counter text;
BEGIN
  SELECT count(*) INTO n FROM "_cms_written";
  IF n > 0 THEN
    FOREACH counter IN ARRAY TG_ARGV LOOP
      INSERT INTO "_cms_changes" ("name", "version") VALUES (counter, n)
      ON CONFLICT ("name") DO UPDATE SET "version" = "_cms_changes"."version" + n;
    END LOOP;
  END IF;
  RETURN NULL;
END $$`,
      ...(['INSERT', 'UPDATE', 'DELETE'] as const).map(
        (op) =>
          `CREATE OR REPLACE TRIGGER "_cms_rows_${op.toLowerCase()}" AFTER ${op} ON ${on} REFERENCING ${op === 'DELETE' ? 'OLD' : 'NEW'} TABLE AS "_cms_written" FOR EACH STATEMENT EXECUTE FUNCTION cms_count_rows(${counters.join(', ')})`,
      ),
      // cms_count_change moves one counter: a trigger for each.
      ...counters.map(
        (counter, i) =>
          `CREATE OR REPLACE TRIGGER "_cms_rows_truncate${i ? '_rows' : ''}" AFTER TRUNCATE ON ${on} FOR EACH STATEMENT EXECUTE FUNCTION cms_count_change(${counter})`,
      ),
    ];
  },
  rowsById: (table) => `"${table.replaceAll('"', '""')}"`,
  lockRow: ' FOR UPDATE',
  // Ready: the row-counting triggers moving both counters, and not the statement-counting one (which an
  // older version, run on the database since, may have made again).
  tablesWithChangeTriggers: `SELECT c.relname AS "table" FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace
    AND EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = '_cms_rows_insert' AND t.tgnargs = 2)
    AND NOT EXISTS (SELECT 1 FROM pg_trigger t WHERE t.tgrelid = c.oid AND t.tgname = '_cms_changes')`,
  databaseSize: 'SELECT pg_database_size(current_database()) AS "bytes"',
  uniqueViolation,
  encodeJSON: (value) => (value === undefined || value === null ? null : new JsonParameter(value)),
  // The store hands JSON columns over as JSON text, as SQLite does (store.ts normalizeRow).
  decodeJSON: (value) => (typeof value === 'string' ? JSON.parse(value) : null),
  boolean: (value) => (value ? 1 : 0),
};
