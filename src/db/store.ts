/**
 * The storage seam (docs/architecture.md): every caller (operations, auth, versions, jobs, webhooks, migrations, CLI,
 * Local API) talks to the database through a `Store`, never to an engine's client. Each engine has one
 * implementation (src/db/sqlite/store.ts, src/db/postgres/store.ts) and one `Dialect` holding every SQL
 * difference, so callers never branch on the engine.
 *
 * How callers write SQL, once for both engines:
 * - Placeholders are `?` (bound in order) or `?N` (numbered, 1-based); never both in one statement.
 *   The PostgreSQL store rewrites them to `$n`. Every value a client sends is a parameter.
 * - Identifiers are double-quoted whenever they are not all lower case (`"createdAt"`): PostgreSQL folds
 *   unquoted names to lower case.
 * - The shared subset: SELECT, INSERT … RETURNING, UPDATE … RETURNING, DELETE … RETURNING,
 *   INSERT … ON CONFLICT (…) DO UPDATE/NOTHING, LIMIT ? OFFSET ?, COALESCE, EXISTS, IN (…), CASE.
 * - Counts are read as `CAST(count(*) AS INTEGER) AS "n"` (PostgreSQL's count is a bigint otherwise).
 * - Anything else (JSON paths, iterating JSON arrays, case-insensitive matching, id lists, row locks, table
 *   locks, catalog lookups, unique violations, JSON and boolean values) goes through `store.dialect`.
 */

import type { SearchSQL } from './search-sql.ts';

/** What a snapshot wrote: a SQLite file or a pg_dump archive; `rows` per table when counted. */
export type DatabaseSnapshot = { format: 'sqlite' | 'pg_dump'; rows?: Record<string, number> };

export type Engine = 'sqlite' | 'postgres';
export type Row = Record<string, unknown>;
export type Params = readonly unknown[];
/** A parameterised fragment: SQL text with `?` placeholders and their values, in order. */
export type SQLPart = { sql: string; params: unknown[] };

/** The parts joined by AND (parenthesised when more than one); null parts are left out, and none at all is null. */
/** A double-quoted SQL identifier (table or column name), the form both engines read. */
export const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * The change counter the triggers move by one per row of config table `table` written, whatever the
 * statement, beside the table's own (which version rows move too): `<table>:rows`, a name no table has.
 */
export const rowsCounter = (table: string) => `${table}:rows`;

/** A change counter's value now, as a scalar subquery: bind the counter's name. */
export const COUNTER_NOW = '(SELECT "version" FROM "_cms_changes" WHERE "name" = ?)';

export function andParts(parts: (SQLPart | null)[]): SQLPart | null {
  const present = parts.filter((p): p is SQLPart => p !== null);
  if (present.length === 0) return null;
  if (present.length === 1) return present[0];
  return { sql: present.map((p) => `(${p.sql})`).join(' AND '), params: present.flatMap((p) => p.params) };
}

/** What a JSON-path read is compared as; PostgreSQL casts the extracted text to it, SQLite needs nothing. */
export type ValueKind = 'text' | 'number' | 'integer' | 'boolean' | 'date' | 'json';

/** Statements, inside or outside a transaction. */
export interface Queryable {
  readonly engine: Engine;
  readonly dialect: Dialect;
  /** Every row; `SELECT …` or a write with `RETURNING`. */
  all<T = Row>(sql: string, params?: Params): Promise<T[]>;
  /** The first row, or null. */
  get<T = Row>(sql: string, params?: Params): Promise<T | null>;
  /** A write without rows back; `changes` is the number of rows it touched. */
  run(sql: string, params?: Params): Promise<{ changes: number }>;
  /** `INSERT …` (without RETURNING): the new row's `"id"`. The store adds `RETURNING "id"`. */
  insert(sql: string, params?: Params): Promise<number>;
  /** DDL or several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Inside a transaction, before a check-then-write on `table` (first admin, last active admin): no other
   * writer can change the table until commit. SQLite: nothing to do (BEGIN IMMEDIATE already holds the
   * database's write lock). PostgreSQL: `LOCK TABLE … IN SHARE ROW EXCLUSIVE MODE`.
   */
  lockTable(table: string): Promise<void>;
}

export interface Store extends Queryable {
  /**
   * Runs `work` in one transaction: commit when it resolves, roll back when it throws. Every statement of
   * the change must go through `tx`; the store behind `tx` is the same connection for the whole work.
   * SQLite: transactions are queued in-process so two never interleave across awaits, and each is
   * BEGIN IMMEDIATE (safe across processes). A `transaction` call on `tx` runs inside the same one.
   */
  transaction<T>(work: (tx: Store) => Promise<T>): Promise<T>;
  /** True on the `tx` a transaction hands out. */
  readonly inTransaction: boolean;
  /** The embedded system-table migrations of this engine (`_cms_sessions`, `_cms_versions`, …). */
  applySystemMigrations(): Promise<void>;
  /** How many of those are not applied yet, without applying them (`getCMS({ migrate: false })`). */
  pendingSystemMigrations(): Promise<number>;
  /**
   * Runs `work` while holding the schema-migration lock, so that instances starting together apply each
   * migration file once (PostgreSQL: an advisory lock; SQLite: one process per file, nothing to take).
   */
  withMigrationLock<T>(work: () => Promise<T>): Promise<T>;
  /**
   * A consistent copy of the whole database written to the file `target`, while every other reader and
   * writer goes on (backups, docs/operations.md). SQLite: a new SQLite file by `VACUUM INTO` on a connection of
   * its own, off the main thread, with the row count of each table. PostgreSQL keeps its own backups
   * (pg_dump, base backups): null, unless `dump` asks for a `pg_dump` custom-format file.
   */
  snapshotTo(target: string, options?: { dump?: boolean }): Promise<DatabaseSnapshot | null>;
  /**
   * After rows were copied in with their ids (`cms migrate:engine`): new rows continue after the highest id
   * of each table. SQLite: nothing to do (AUTOINCREMENT follows explicit ids). PostgreSQL: the `_cms_ids`
   * counters of config tables and the identity sequences of system tables.
   */
  continueIdsAfterCopy(tables: readonly string[]): Promise<void>;
  /**
   * The change counters of `_cms_changes` (content table → how many times it changed), current as of the
   * call: every commit acknowledged before it, by any process or instance, is counted (src/cache/).
   * SQLite: read in the turn's read snapshot, again only when its `PRAGMA data_version` moved.
   * PostgreSQL: with `exact`, one query each call. Without it, while the listening connection is healthy,
   * re-read only after a notification on the `cms_changes` channel or this store's own write: every commit
   * of this instance, and another instance's within the notification's delay (about a millisecond) and at
   * most 10 ms after its acknowledgement (a kept reading is read again once that old); one
   * query each call while that connection is down. Credentials ask for `exact` (a revoked session or key
   * stops at once everywhere); kept answers of the response cache do not. SQLite with `latest`: the turn's
   * snapshot ends first, so the file is looked at as it is now (a kept count, whose recount costs far more
   * than the look).
   */
  changeCounters(options?: { exact?: boolean; latest?: boolean }): Promise<ReadonlyMap<string, number>>;
  /**
   * Calls `listener` soon after a change counter moved, whoever committed: `name` is the counter (a
   * table), or null when anything may have changed (the engine lost track for a while). SQLite: this
   * store's own commits at once, other processes' within a short poll of `PRAGMA data_version`. PostgreSQL:
   * the `cms_changes` notifications. Answers a function that stops it.
   */
  watchChanges(listener: (name: string | null) => void): () => void;
  /**
   * Connections of the pool taken now and its size (PostgreSQL), for `GET /metrics`. SQLite has no pool
   * (one connection in process): absent.
   */
  poolUse?(): { inUse: number; max: number };
  close(): Promise<void>;
}

/** Every SQL difference between the engines. Identifiers and JSON path segments come from the sanitized config. */
export interface Dialect {
  /**
   * Meters from the JSON point `[lng, lat]` at `point` to (`lng`, `lat`) on a sphere of the Earth's mean
   * radius (haversine); NULL when the value is no point. `lng` and `lat` are finite numbers the caller
   * checked; they are written into the SQL as number literals so that ORDER BY can use it without parameters.
   */
  distanceMeters(point: string, lng: number, lat: number): string;
  readonly engine: Engine;
  /** The JSON value at `path` inside JSON `expr`, still JSON (to read further into it or to COALESCE). */
  jsonGet(expr: string, path: readonly string[]): string;
  /** The scalar at `path` inside JSON `expr`, as `kind`; an empty path reads `expr` itself (a `jsonItems` value). */
  jsonValue(expr: string, path: readonly string[], kind: ValueKind): string;
  /** `json_array_length`: the length of the JSON array `expr`. */
  jsonArrayLength(expr: string): string;
  /** A FROM source of the items of JSON array `expr`, each in a column named `value` (JSON, read with jsonValue). */
  jsonItems(expr: string): string;
  /** `expr` matches the one `?` pattern case-insensitively, `\` escaping `%` and `_`. */
  likeInsensitive(expr: string): string;
  /** `expr` is one of `values` (a list of any length, bound as one parameter). */
  inList(expr: string, values: readonly (number | string)[]): SQLPart;
  /**
   * Run inside a transaction before appending to a log whose readers follow it by id (the realtime change
   * log): afterwards no other transaction appends until this one ends, so ids are in commit order and a
   * reader never skips a row that commits late. SQLite: null (BEGIN IMMEDIATE already serializes writers).
   */
  readonly orderedAppend: string | null;
  /** The full-text index's statements (src/search/). */
  readonly search: SearchSQL;
  /** Appended to the subquery that picks a due row to claim: PostgreSQL's `FOR UPDATE SKIP LOCKED`. */
  readonly skipLocked: string;
  /** SQL text of `LOCK TABLE` for Queryable.lockTable, or null when the engine needs none. */
  lockTable(table: string): string | null;
  /** One row (any columns) when the table exists. */
  tableExists(table: string): SQLPart;
  /**
   * One row `{ last }`: the last id the system table's id column handed out, rows removed since counted
   * (null or no row when it never gave one).
   */
  lastIdGiven(table: string): SQLPart;
  /**
   * Statements making the triggers that count every row written to config table `table` in `_cms_changes`
   * (one per row, whatever the statement): under the table's name, and under `<table>:rows`, which version
   * rows do not move (./rows-rewritten.ts).
   */
  changeTriggers(table: string): string[];
  /**
   * A FROM source walking config table `table` by id from a `"id" > ?` bound, whatever index a filter on it
   * could use: a kept count is brought up to date from the rows added since (./kept-counts.ts).
   */
  rowsById(table: string): string;
  /** Appended to a `SELECT` of one row in a transaction: the row stays as read until commit (SQLite: nothing). */
  readonly lockRow: string;
  /** A query answering `{ table }` rows: the tables whose change triggers exist. */
  readonly tablesWithChangeTriggers: string;
  /** A query answering one row `{ bytes }`: the database's size (GET /metrics). */
  readonly databaseSize: string;
  /** The column named by a unique-constraint violation, or null when `error` is something else. */
  uniqueViolation(error: unknown): string | null;
  /** A JSON column's value: to bind (`encodeJSON`) and as read back (`decodeJSON`). */
  encodeJSON(value: unknown): unknown;
  decodeJSON(value: unknown): unknown;
  /** A checkbox's value to bind. */
  boolean(value: boolean): unknown;
}
