/**
 * The SQLite store: bun:sqlite, one file in WAL mode, two connections.
 *
 * - The write connection runs every write and every transaction. Transactions are queued in-process
 *   (one `WriteTurn` per database file, shared by every store of this process on that file), so two never
 *   interleave across the awaits inside them, and each is BEGIN IMMEDIATE, so check-then-write stays safe
 *   against other processes. A write outside a transaction runs at once when no transaction holds the
 *   file, else it waits its turn like one. (Without the shared turn, a second store on the same file would
 *   wait for the write lock synchronously, in busy_timeout, blocking the very thread that must finish the
 *   first transaction.)
 * - The read connection runs every SELECT outside a transaction: WAL gives it the last committed state,
 *   so a reader never sees the uncommitted writes of a transaction that is waiting on an await. The reads
 *   of one turn of the event loop share one read transaction (./read-snapshot.ts), ended by every commit.
 *   (`:memory:` has one connection only; reads there may see a transaction in flight.)
 * - Statements are prepared once per SQL text (bun:sqlite's `query` cache) and run synchronously; the
 *   promise around them is the only cost the seam adds to the hot read path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Database, type SQLQueryBindings } from 'bun:sqlite';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import { systemMigrations, toDrizzleMigrations } from '../system-migrations.ts';
import type { Params, Queryable, Store } from '../store.ts';
import { sqliteDialect } from './dialect.ts';
import { snapshotSqlite } from './snapshot.ts';
import { watchCounters } from './watch-counters.ts';
import { CHECKPOINT_FRAMES, HARD_LIMIT_FRAMES, startCheckpointer, type Checkpointer } from './checkpointer.ts';
import { flushBatch, inTurn, releaseTurn, turnBusy, turnFor, type WriteConnection } from './write-turn.ts';
import { captureOf } from './commit-capture.ts';
import { endReadSnapshots, readSnapshot } from './read-snapshot.ts';

type Bindings = SQLQueryBindings[];

/**
 * Schema changes of one file, one at a time in this process (two instances starting together in one
 * process would both write and apply the same migration). Across processes, applying a file re-checks
 * inside its BEGIN IMMEDIATE transaction that no one applied it meanwhile (src/db/schema-migrate.ts).
 */
const migrationLocks = new Map<string, Promise<unknown>>();
function withFileMigrationLock<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = migrationLocks.get(key) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.then(
    () => {},
    () => {},
  );
  migrationLocks.set(key, settled);
  void settled.then(() => {
    if (migrationLocks.get(key) === settled) migrationLocks.delete(key);
  });
  return next;
}

function open(file: string, readonly: boolean): Database {
  const db = readonly
    ? new Database(file, { readonly: true, strict: true })
    : new Database(file, { create: true, strict: true });
  if (!readonly) {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
  }
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA busy_timeout = 5000');
  return db;
}

/**
 * Plain SELECTs go to the read connection, and the connection's own reading aids (temp tables over the
 * full-text index's vocabulary, and one that tokenizes a few texts: src/db/search-sql.ts); everything else
 * (including `UPDATE … RETURNING`) writes.
 */
const isRead = (sql: string) =>
  /^\s*(select\b|create virtual table if not exists temp\.|insert into temp\.|delete from temp\.)/i.test(sql);

/**
 * A statement that writes rows and nothing else: when it changed none (`changes` 0), it wrote nothing.
 * Schema statements change no row yet write, so they are not among these.
 */
const isRowWrite = (sql: string) => /^\s*(insert|update|delete|replace)\b/i.test(sql);
/** A row write that answers one row per row it changed: no row back, nothing written. */
const returnsChanges = (sql: string) => isRowWrite(sql) && /\breturning\b/i.test(sql);

/** Statements on one connection, synchronously. */
function statementsOn(db: Database) {
  return {
    all: <T>(sql: string, params: Params = []) => db.query(sql).all(...(params as Bindings)) as T[],
    get: <T>(sql: string, params: Params = []) => (db.query(sql).get(...(params as Bindings)) as T | null) ?? null,
    run: (sql: string, params: Params = []) => db.query(sql).run(...(params as Bindings)),
  };
}

export function openSqliteStore(file: string): Store {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const writer = open(file, false);
  const reader = file === ':memory:' ? writer : open(file, true);
  const write = statementsOn(writer);
  const read = statementsOn(reader);
  const turn = turnFor(file);
  const snapshot = reader === writer ? null : readSnapshot(reader, turn.key, () => performance.now());
  // Prepared once: `exec` parses its text on every call, which cost as much again as the insert itself.
  const control = [
    'BEGIN IMMEDIATE',
    'COMMIT',
    'ROLLBACK',
    'SAVEPOINT "cms_write"',
    'RELEASE "cms_write"',
    'ROLLBACK TO "cms_write"',
  ].map((sql) => writer.prepare(sql));
  const [begin, commit, rollback, savepoint, releaseSavepoint, rollbackToSavepoint] = control;
  // Checkpoints run in a worker, not in COMMIT (a file only: `:memory:` has no log).
  let checkpointer: Checkpointer | null = null;
  const afterCommit = () => {
    endReadSnapshots(turn.key);
    checkpointer?.afterCommit();
    changes.look();
  };
  // Continuous replication (src/replica/) hears of every write of a transaction and of its commit.
  const capture = () => captureOf(turn.key);
  const noted = (sql: string, params: Params | null) => {
    if (params === null || !isRead(sql)) capture()?.statement(sql, params);
  };
  const connection: WriteConnection = {
    begin: () => {
      // Waiting for the write lock (busy_timeout, on this thread) must not hold a read snapshot another
      // process's checkpoint may be waiting for while it holds that lock.
      endReadSnapshots(turn.key);
      begin.run();
      capture()?.begin();
    },
    commit: () => {
      const replica = capture();
      replica?.seal(write.run);
      try {
        commit.run();
      } catch (error) {
        replica?.abandon();
        throw error;
      }
      const durable = replica?.committed();
      afterCommit();
      return durable;
    },
    rollback: () => {
      rollback.run();
      capture()?.abandon();
    },
    savepoint: () => {
      savepoint.run();
      capture()?.savepoint();
    },
    releaseSavepoint: () => {
      releaseSavepoint.run();
      capture()?.releaseSavepoint();
    },
    rollbackToSavepoint: () => {
      rollbackToSavepoint.run();
      capture()?.rollbackToSavepoint();
    },
    inTransaction: () => writer.inTransaction,
  };

  /** Writes begin once a checkpoint that fell behind has finished (src/db/sqlite/checkpointer.ts). */
  const unlessBehind = <T>(write: () => Promise<T>): Promise<T> => {
    const behind = checkpointer?.behind();
    return behind ? behind.then(write) : write();
  };

  const transaction = <T>(work: (tx: Store) => Promise<T>): Promise<T> =>
    unlessBehind(() => inTurn(turn, connection, () => work(tx)));

  /**
   * A write outside a transaction: at once when the connection is free, else after the transaction (or batch)
   * in flight. `wrote` says from its result whether it may have changed anything: one that changed no row
   * wrote nothing, so the watchers and the checkpointer hear of no commit (the job loop's runs are mostly
   * such statements, and a checkpoint asked for nothing would start the checkpoint worker of an idle server).
   */
  const outside = <T>(
    statement: (on: Queryable) => Promise<T>,
    wrote: (result: T) => boolean = () => true,
  ): Promise<T> =>
    unlessBehind(() => {
      // Replicated writes run as transactions, so that each is numbered and shipped with its statements.
      if (turnBusy(turn) || capture()) return inTurn(turn, connection, () => statement(tx));
      endReadSnapshots(turn.key);
      return statement(tx).then((result) => {
        if (wrote(result)) afterCommit();
        return result;
      });
    });

  if (file !== ':memory:') {
    checkpointer = startCheckpointer(
      file,
      () => performance.now(),
      () => writer.exec(`PRAGMA wal_autocheckpoint = ${CHECKPOINT_FRAMES}`),
    );
    writer.exec(`PRAGMA wal_autocheckpoint = ${HARD_LIMIT_FRAMES}`);
  }
  // The counters are read in the turn's read snapshot, beside the reads they vouch for, and again only
  // when the read connection's `PRAGMA data_version` moved: it changes whenever another connection
  // (this process's writer, another process) committed, and asked inside the snapshot it takes no read
  // transaction of its own. Within one snapshot nothing can move, so the pragma is asked once per snapshot.
  // Every commit of this process ends the snapshot, so a reading after it sees it. (`:memory:` has one
  // connection: read them every time.)
  const dataVersion = snapshot ? reader.prepare<{ data_version: number }, []>('PRAGMA data_version') : null;
  let countersVersion = -1;
  let countersSnapshot = -1;
  let counters: ReadonlyMap<string, number> = new Map();
  let closed = false;
  const readCounters = () =>
    new Map(
      read
        .all<{ name: string; version: number }>('SELECT "name", "version" FROM "_cms_changes"')
        .map((r) => [r.name, r.version]),
    );
  const changeCounters = async (options: { latest?: boolean } = {}) => {
    if (closed) throw new Error('The store is closed.');
    if (!snapshot || !dataVersion) return (counters = readCounters());
    if (options.latest) snapshot.end();
    snapshot.enter();
    const opened = snapshot.opened();
    if (opened === countersSnapshot) return counters;
    const version = dataVersion.get()!.data_version;
    if (version !== countersVersion) {
      counters = readCounters();
      countersVersion = version;
    }
    countersSnapshot = opened;
    return counters;
  };

  const changes = watchCounters(changeCounters);

  const tx: Store = {
    engine: 'sqlite',
    dialect: sqliteDialect,
    inTransaction: true,
    all: async <T>(sql: string, params?: Params) => {
      const rows = write.all<T>(sql, params);
      noted(sql, params ?? []);
      return rows;
    },
    get: async <T>(sql: string, params?: Params) => {
      const row = write.get<T>(sql, params);
      noted(sql, params ?? []);
      return row;
    },
    run: async (sql, params) => {
      const { changes } = write.run(sql, params);
      noted(sql, params ?? []);
      return { changes };
    },
    insert: async (sql, params) => {
      const id = Number(write.run(sql, params).lastInsertRowid);
      noted(sql, params ?? []);
      return id;
    },
    exec: async (sql) => {
      writer.exec(sql);
      noted(sql, null);
    },
    lockTable: async () => {},
    transaction: (work) => work(tx),
    applySystemMigrations: () => Promise.reject(new Error('System migrations do not run inside a transaction.')),
    pendingSystemMigrations: async () => pendingSystemMigrationsOn(writer).length,
    withMigrationLock: (work) => work(),
    snapshotTo: () => Promise.reject(new Error('A snapshot is taken outside a transaction.')),
    continueIdsAfterCopy: async () => {},
    changeCounters: () => Promise.reject(new Error('Change counters are read outside a transaction.')),
    watchChanges: () => () => {},
    close: () => Promise.reject(new Error('A transaction cannot close the store.')),
  };

  const store: Store = {
    engine: 'sqlite',
    dialect: sqliteDialect,
    inTransaction: false,
    all: async (sql, params) => {
      if (!isRead(sql))
        return outside(
          (on) => on.all(sql, params),
          (rows) => rows.length > 0 || !returnsChanges(sql),
        );
      snapshot?.enter();
      return read.all(sql, params);
    },
    get: async (sql, params) => {
      if (!isRead(sql))
        return outside(
          (on) => on.get(sql, params),
          (row) => row !== null || !returnsChanges(sql),
        );
      snapshot?.enter();
      return read.get(sql, params);
    },
    run: (sql, params) =>
      outside(
        (on) => on.run(sql, params),
        ({ changes }) => changes > 0 || !isRowWrite(sql),
      ),
    insert: (sql, params) => outside((on) => on.insert(sql, params)),
    exec: (sql) => outside((on) => on.exec(sql)),
    lockTable: async () => {},
    transaction,
    // Nothing pending (every start but an upgrade's): no write, so no commit either.
    applySystemMigrations: async () => {
      if (pendingSystemMigrationsOn(writer).length > 0) await outside(async () => applySystemMigrationsOn(writer));
    },
    pendingSystemMigrations: async () => pendingSystemMigrationsOn(reader).length,
    withMigrationLock: (work) => withFileMigrationLock(turn.key, work),
    snapshotTo: async (target) => ({ format: 'sqlite', ...(await snapshotSqlite(file, target)) }),
    // AUTOINCREMENT follows the highest id inserted, explicit ones included.
    continueIdsAfterCopy: async () => {},
    changeCounters,
    watchChanges: changes.watch,
    async close() {
      changes.stop();
      closed = true;
      await turn.next;
      // Closed before the last batch commits below, so that commit asks no new worker for a checkpoint.
      const closing = checkpointer;
      checkpointer = null;
      await closing?.close();
      flushBatch(turn, connection);
      releaseTurn(turn);
      for (const prepared of control) prepared.finalize();
      dataVersion?.finalize();
      snapshot?.close();
      if (reader !== writer) reader.close();
      writer.close();
    },
  };
  return store;
}

/**
 * The embedded system migrations, in drizzle's bookkeeping (`__cms_system_migrations`: hash, created_at =
 * the journal's `when`), so databases migrated by drizzle's own migrator before carry on. Our own loop,
 * with cached statements only: drizzle's migrator leaves prepared statements unfinalized, which keeps the
 * file open after close (a "zombie" connection) until they are collected, and `cms restore` in the same
 * process would then see the database as still in use.
 */
function pendingSystemMigrationsOn(db: Database): MigrationMeta[] {
  const all = toDrizzleMigrations(systemMigrations);
  const known = db
    .query<{ found: number }, []>(
      `SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = '__cms_system_migrations'`,
    )
    .get();
  if (!known) return all;
  const last = db
    .query<{ created_at: number }, []>(
      'SELECT created_at FROM "__cms_system_migrations" ORDER BY created_at DESC LIMIT 1',
    )
    .get();
  return all.filter((m) => !last || Number(last.created_at) < m.folderMillis);
}

function applySystemMigrationsOn(db: Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS "__cms_system_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)',
  );
  const pending = pendingSystemMigrationsOn(db);
  if (pending.length === 0) return;
  db.transaction(() => {
    for (const migration of pending) {
      for (const statement of migration.sql) if (statement.trim()) db.run(statement);
      db.query('INSERT INTO "__cms_system_migrations" ("hash", "created_at") VALUES (?, ?)').run(
        migration.hash,
        migration.folderMillis,
      );
    }
  })();
}
