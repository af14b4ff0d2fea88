/**
 * Applies migrations on PostgreSQL: the embedded system migrations (migrations/system-postgres/) and the
 * project's migration files (`migrations/postgres/` beside the config). Several instances may start at
 * once on one database (docs/postgres.md), so every apply runs under one session-level advisory lock held on
 * one reserved connection: the first instance applies, the others wait, then find nothing left to do.
 * Each file runs in its own transaction (PostgreSQL's DDL is transactional), recorded in the same one.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type { ReservedSQL, SQL } from 'bun';
import { generatedSystemMigrations } from './system-migrations.generated.ts';
import { migrationStatements } from '../migration-statements.ts';

/** One SQL file: statements separated by drizzle-kit's `--> statement-breakpoint`. */
export type MigrationSource = { name: string; sql: string };

/** Arbitrary but fixed: every instance of every version must use the same key. ("cms" in ASCII.) */
export const MIGRATION_LOCK_KEY = 0x636d73;

/** In journal order, embedded in the binary. */
export const postgresSystemMigrations: MigrationSource[] = generatedSystemMigrations.map((m) => ({
  name: m.tag,
  sql: m.sql,
}));

/** The lock this async call chain already holds, so that nesting reuses it instead of waiting on itself. */
const held = new AsyncLocalStorage<{ sql: SQL; conn: ReservedSQL }>();

/**
 * Runs `fn` on one connection while holding the migration lock; waits while another instance holds it.
 * Re-entrant within one call chain (e.g. `cms serve` diffing the config and applying files under one lock):
 * a session lock taken again from another pool connection would wait for itself forever.
 */
export async function withMigrationLock<T>(sql: SQL, fn: (conn: ReservedSQL) => Promise<T>): Promise<T> {
  const current = held.getStore();
  if (current?.sql === sql) return fn(current.conn);
  const conn = await sql.reserve();
  try {
    await conn.unsafe('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      return await held.run({ sql, conn }, () => fn(conn));
    } finally {
      await conn.unsafe('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    conn.release();
  }
}

/** How many embedded system migrations are not applied yet (none of them when their record table is missing). */
export async function pendingPostgresSystemMigrations(
  sql: Pick<SQL, 'unsafe'>,
  list: readonly MigrationSource[] = postgresSystemMigrations,
): Promise<number> {
  const [found] = await sql.unsafe(`SELECT to_regclass('"_cms_system_migrations"') IS NOT NULL AS "found"`);
  if (!found?.found) return list.length;
  const done = await appliedPostgresMigrations(sql as SQL, '_cms_system_migrations');
  return list.filter((m) => !done.has(m.name)).length;
}

/** Applies the embedded system migrations not applied yet. Returns the names applied. */
export async function applyPostgresSystemMigrations(
  sql: SQL,
  now: string,
  list: readonly MigrationSource[] = postgresSystemMigrations,
): Promise<string[]> {
  return withMigrationLock(sql, async (conn) => {
    // The system tables' own record; it cannot live in a system migration, it says which ones ran.
    await conn.unsafe(
      'CREATE TABLE IF NOT EXISTS "_cms_system_migrations" ("name" text PRIMARY KEY, "hash" text NOT NULL, "appliedAt" text NOT NULL)',
    );
    return applyPending(conn, list, '_cms_system_migrations', now);
  });
}

/**
 * Applies the project's migration files not applied yet (recorded in `_cms_schema_migrations`, a system
 * table, so the system migrations must have run). Returns the names applied.
 */
export async function applyPostgresMigrationFiles(
  sql: SQL,
  files: readonly MigrationSource[],
  now: string,
  onProgress?: (name: string) => void,
): Promise<string[]> {
  return withMigrationLock(sql, (conn) => applyPending(conn, files, '_cms_schema_migrations', now, onProgress));
}

export async function appliedPostgresMigrations(
  sql: SQL | ReservedSQL,
  table = '_cms_schema_migrations',
): Promise<Set<string>> {
  const rows = await sql.unsafe(`SELECT "name" FROM "${table}"`);
  return new Set(rows.map((r: { name: string }) => r.name));
}

/** Call only while holding the lock: the applied list read here stays true until the files are applied. */
async function applyPending(
  conn: ReservedSQL,
  list: readonly MigrationSource[],
  table: string,
  now: string,
  onProgress?: (name: string) => void,
): Promise<string[]> {
  const done = await appliedPostgresMigrations(conn, table);
  const withHash = table === '_cms_system_migrations';
  const applied: string[] = [];
  for (const migration of list) {
    if (done.has(migration.name)) continue;
    onProgress?.(migration.name);
    await conn.unsafe('BEGIN');
    try {
      for (const statement of migrationStatements(migration.sql)) await conn.unsafe(statement);
      if (withHash) {
        await conn.unsafe(`INSERT INTO "${table}" ("name", "hash", "appliedAt") VALUES ($1, $2, $3)`, [
          migration.name,
          sha256(migration.sql),
          now,
        ]);
      } else {
        await conn.unsafe(`INSERT INTO "${table}" ("name", "appliedAt") VALUES ($1, $2)`, [migration.name, now]);
      }
      await conn.unsafe('COMMIT');
    } catch (error) {
      await conn.unsafe('ROLLBACK');
      throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`);
    }
    applied.push(migration.name);
  }
  return applied;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
