/**
 * The config decisions that read the environment and the disk: which engine and database (`DATABASE_URL`
 * beats the config), and where this engine's migration files live beside the config.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_POOL_SIZE, describeUrl, isPostgresUrl } from './database-url.ts';

type Fail = (key: string, message: string) => never;

/**
 * A `postgres://` or `postgresql://` URL selects PostgreSQL; anything else is a SQLite path. A command's own
 * target (`migrate:engine --to`) beats DATABASE_URL, which beats the config.
 */
export function databaseSettings(
  input: { commandTarget?: string; configured?: string; pool: unknown },
  resolve: (p: string) => string,
  fail: Fail,
) {
  const database = input.commandTarget || process.env.DATABASE_URL || input.configured || 'data/cms.db';
  if (!isPostgresUrl(database)) {
    const file = resolve(database);
    return { databaseEngine: 'sqlite' as const, databasePath: file, databaseLabel: file, databasePool: 1 };
  }
  const databasePool = input.pool === undefined ? DEFAULT_POOL_SIZE : Number(input.pool);
  if (!Number.isInteger(databasePool) || databasePool < 1) fail('databasePool', 'must be a positive whole number');
  return {
    databaseEngine: 'postgres' as const,
    databasePath: database,
    databaseLabel: describeUrl(database),
    databasePool,
  };
}

/**
 * SQL of each engine in its own folder beside the config. A SQLite install made before there were two engines
 * keeps its flat `migrations/` (files already there), so its history is read and continued where it is.
 */
export function migrationsDirFor(engine: 'sqlite' | 'postgres', base: string): string {
  if (engine === 'postgres') return path.join(base, 'postgres');
  const flat = fs.existsSync(base) && fs.readdirSync(base).some((f) => /^\d{4}_[\w-]+\.sql$/.test(f));
  return flat ? base : path.join(base, 'sqlite');
}
