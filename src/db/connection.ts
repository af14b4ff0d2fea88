/** Opens the SQLite database (WAL) and applies the system migrations that ship inside the binary. */
import fs from 'node:fs';
import path from 'node:path';
import { Database } from 'bun:sqlite';
import { drizzle, type BunSQLiteDatabase } from 'drizzle-orm/bun-sqlite';
import { systemMigrations, toDrizzleMigrations } from './system-migrations.ts';

export type DB = BunSQLiteDatabase;

export function openDatabase(file: string): { sqlite: Database; db: DB } {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new Database(file, { create: true, strict: true });
  sqlite.exec('PRAGMA journal_mode = WAL');
  sqlite.exec('PRAGMA synchronous = NORMAL');
  sqlite.exec('PRAGMA foreign_keys = ON');
  sqlite.exec('PRAGMA busy_timeout = 5000');
  const db = drizzle({ client: sqlite });
  return { sqlite, db };
}

export function applySystemMigrations(db: DB): void {
  const internal = db as unknown as { dialect: { migrate(m: unknown, s: unknown, c: unknown): void }; session: unknown };
  internal.dialect.migrate(toDrizzleMigrations(systemMigrations), internal.session, { migrationsTable: '__cms_system_migrations' });
}
