/**
 * The PostgreSQL store: Bun's built-in client (Bun.SQL), one pool per process, many processes per database.
 *
 * - Statements take `?`/`?N` placeholders like SQLite's (rewritten to `$n`, ./placeholders.ts) and run
 *   through `unsafe(text, params)`: prepared per connection by Bun, every value bound.
 * - A transaction is `sql.begin`: one pool connection for the whole work, committed when it resolves,
 *   rolled back when it throws; a `transaction` call on its `tx` runs inside the same one. Statements
 *   outside a transaction run on any free pool connection and see committed data only.
 * - Numbers: Bun.SQL answers int8 and numeric as strings. The store turns every int8/numeric column of a
 *   result into a JS number (by the column's type OID), so `count(*)`, epoch-ms `bigint` columns and ids
 *   read the same as on SQLite. Exact up to 2^53, far above any count, id or epoch-ms time.
 */
import type { SQL } from 'bun';
import type { Params, Queryable, Row, Store } from '../store.ts';
import { connectPostgres, DEFAULT_POOL_SIZE } from './connect.ts';
import { postgresDialect } from './dialect.ts';
import { applyPostgresSystemMigrations, pendingPostgresSystemMigrations, withMigrationLock } from './migrate.ts';
import { numberPlaceholders } from './placeholders.ts';
import { keptCounters } from './kept-counters.ts';
import { poolGate, POOL_WAIT_MS } from './pool-gate.ts';
import { dumpPostgres } from './dump.ts';

/** `int8` and `numeric` type OIDs (pg_type): the result columns Bun.SQL answers as strings. */
const NUMBER_AS_TEXT = new Set([20, 1700]);
/** `json` and `jsonb`: Bun.SQL answers them parsed; rows carry them as JSON text, as SQLite's do. */
const JSON_TYPES = new Set([114, 3802]);

/** The part of Bun.SQL (pool or transaction) a Queryable needs. */
type Runner = Pick<SQL, 'unsafe'>;
type Result = Row[] & { count?: number | null; columns?: { name: string; type: number }[] };

export type PostgresStoreOptions = {
  /** Connections per process (config `databasePool`). */
  poolSize?: number;
  /** Epoch ms, for the applied-at time of system migrations (`cms.clock` in the server). */
  now?: () => number;
  /** How long a statement waits for a free pool connection before it fails with a 503 (default 5 s). */
  poolWaitMs?: number;
};

/** The Store, plus the client for what only PostgreSQL has (migration files under the advisory lock). */
export type PostgresStore = Store & { readonly sql: SQL };

/**
 * Rows as SQLite gives them, so that callers read both engines alike: int8/numeric as numbers, and JSON
 * columns as JSON text (decoded once by the caller, like SQLite's; a jsonb string is then never mistaken
 * for JSON text).
 */
function normalizeRow(result: Result): Result {
  const numbers = result.columns?.filter((c) => NUMBER_AS_TEXT.has(c.type)).map((c) => c.name) ?? [];
  const json = result.columns?.filter((c) => JSON_TYPES.has(c.type)).map((c) => c.name) ?? [];
  if (!numbers.length && !json.length) return result;
  for (const row of result) {
    for (const name of numbers) {
      const value = row[name];
      if (typeof value === 'string') row[name] = Number(value);
    }
    for (const name of json) {
      const value = row[name];
      if (value !== null && value !== undefined) row[name] = JSON.stringify(value);
    }
  }
  return result;
}

const isRead = (sql: string) => /^\s*select\b/i.test(sql);

async function query(on: Runner, sql: string, params: Params = []): Promise<Result> {
  return normalizeRow((await on.unsafe(numberPlaceholders(sql), params as unknown[])) as Result);
}

/** Statements on the pool or inside one transaction. */
function queryable(on: Runner, inTransaction: boolean): Queryable {
  return {
    engine: 'postgres',
    dialect: postgresDialect,
    // A plain array: Bun.SQL's result carries extra properties (count, columns) that callers should not see.
    all: async <T>(sql: string, params?: Params) => Array.from(await query(on, sql, params)) as T[],
    get: async <T>(sql: string, params?: Params) => ((await query(on, sql, params))[0] as T | undefined) ?? null,
    run: async (sql, params) => ({ changes: (await query(on, sql, params)).count ?? 0 }),
    async insert(sql, params) {
      const rows = await query(on, `${sql.trim().replace(/;$/, '')} RETURNING "id"`, params);
      if (!rows[0]) throw new Error('The insert added no row, so it has no id.');
      return Number(rows[0].id);
    },
    // Without parameters Bun.SQL uses the simple protocol, which runs several `;`-separated statements.
    exec: async (sql) => void (await on.unsafe(sql)),
    async lockTable(table) {
      // Outside a transaction PostgreSQL refuses LOCK TABLE; a check-then-write there is a caller's bug.
      if (!inTransaction)
        throw new Error(`lockTable("${table}") needs a transaction: the lock lasts until its commit.`);
      await on.unsafe(postgresDialect.lockTable(table)!);
    },
  };
}

export async function createPostgresStore(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const sql = await connectPostgres(url, { poolSize: options.poolSize });
  const gate = poolGate(options.poolSize ?? DEFAULT_POOL_SIZE, options.poolWaitMs ?? POOL_WAIT_MS);
  // Statements outside a transaction take a pool connection each: through the gate (a transaction's own go on its connection).
  const gated: Runner = {
    unsafe: ((text: string, params?: unknown[]) => gate(async () => await sql.unsafe(text, params))) as SQL['unsafe'],
  };
  const now = () => new Date((options.now ?? Date.now)()).toISOString();
  const lock = <T>(work: () => Promise<T>) => withMigrationLock(sql, () => work());

  const counters = keptCounters(
    url,
    async () =>
      new Map(
        (await query(gated, 'SELECT "name", "version" FROM "_cms_changes"')).map((r: Row) => [
          r.name as string,
          Number(r.version),
        ]),
      ),
  );
  const afterWrite = <T>(result: T) => {
    counters.wrote();
    return result;
  };
  const pool = queryable(gated, false);

  const transaction = <T>(work: (tx: Store) => Promise<T>): Promise<T> =>
    gate(
      () =>
        sql.begin((on) => {
          const tx: Store = {
            ...queryable(on, true),
            inTransaction: true,
            transaction: (inner) => inner(tx),
            applySystemMigrations: () =>
              Promise.reject(new Error('System migrations do not run inside a transaction.')),
            pendingSystemMigrations: () => pendingPostgresSystemMigrations(on),
            withMigrationLock: lock,
            snapshotTo: async () => null,
            continueIdsAfterCopy: () => Promise.reject(new Error('Ids are continued outside a transaction.')),
            changeCounters: () => Promise.reject(new Error('Change counters are read outside a transaction.')),
            watchChanges: () => () => {},
            close: () => Promise.reject(new Error('A transaction cannot close the store.')),
          };
          return work(tx);
        }) as Promise<T>,
    ).then(afterWrite);

  return {
    ...pool,
    // Writes outside a transaction (a SELECT writes nothing; anything else may).
    all: <T>(text: string, params?: Params) =>
      pool.all<T>(text, params).then((rows) => (isRead(text) ? rows : afterWrite(rows))),
    get: <T>(text: string, params?: Params) =>
      pool.get<T>(text, params).then((row) => (isRead(text) ? row : afterWrite(row))),
    run: (text, params) => pool.run(text, params).then(afterWrite),
    insert: (text, params) => pool.insert(text, params).then(afterWrite),
    exec: (text) => pool.exec(text).then(afterWrite),
    sql,
    inTransaction: false,
    transaction,
    poolUse: () => ({ inUse: gate.inUse(), max: options.poolSize ?? DEFAULT_POOL_SIZE }),
    applySystemMigrations: async () => void (await applyPostgresSystemMigrations(sql, now())),
    pendingSystemMigrations: () => pendingPostgresSystemMigrations(sql),
    withMigrationLock: lock,
    // The database part of a backup is PostgreSQL's own job (pg_dump, base backups), unless asked for
    // (`cms backup --with-database`): docs/operations.md.
    snapshotTo: async (target, options) => {
      if (!options?.dump) return null;
      return { format: 'pg_dump', rows: await dumpPostgres(url, target) };
    },
    continueIdsAfterCopy: (tables) => continueIds(sql, tables),
    changeCounters: counters.changeCounters,
    watchChanges: counters.watchChanges,
    close: async () => {
      await counters.close();
      await sql.close();
    },
  };
}

/**
 * Config tables take ids from `cms_next_id` (the `_cms_ids` counters), system tables from identity
 * sequences; after a copy with explicit ids both are moved to each table's highest id.
 */
async function continueIds(sql: SQL, tables: readonly string[]): Promise<void> {
  for (const table of tables) {
    const name = `"${table.replaceAll('"', '""')}"`;
    const [column] = await sql.unsafe(
      `SELECT column_default AS "fallback", is_identity AS "identity" FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 AND column_name = 'id'`,
      [table],
    );
    const identity = column?.identity === 'YES';
    const counted = String(column?.fallback ?? '').startsWith('cms_next_id(');
    if (!identity && !counted) continue;
    const [{ max }] = await sql.unsafe(`SELECT max("id")::bigint AS "max" FROM ${name}`);
    if (max === null) continue;
    if (identity) await sql.unsafe(`SELECT setval(pg_get_serial_sequence($1, 'id'), $2)`, [name, Number(max)]);
    else
      await sql.unsafe(
        `INSERT INTO "_cms_ids" ("table", "last") VALUES ($1, $2) ON CONFLICT ("table") DO UPDATE SET "last" = excluded."last"`,
        [table, Number(max)],
      );
  }
}
