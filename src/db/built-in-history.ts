/**
 * Without a config file the built-in defaults keep their migration files in the data folder
 * (docs/operations.md, "First run"). When a config file is added later, its own migrations folder starts
 * empty while the database already holds those tables: the defaults' history is copied there first, so the
 * config's changes continue it instead of creating the tables again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { migrationsDirFor } from '../config/database-settings.ts';
import type { SanitizedConfig } from '../config/types.ts';
import { listMigrationFiles } from './schema-migrate.ts';

/** Copies the defaults' files into the config's empty migrations folder; returns where they came from, or null. */
export function adoptBuiltInHistory(config: SanitizedConfig): string | null {
  if (!config.configPath || listMigrationFiles(config.migrationsDir).length > 0) return null;
  const source = migrationsDirFor(config.databaseEngine, path.join(config.dataDir, 'migrations'));
  if (path.resolve(source) === path.resolve(config.migrationsDir)) return null;
  const files = listMigrationFiles(source);
  if (files.length === 0) return null;
  fs.mkdirSync(path.join(config.migrationsDir, 'meta'), { recursive: true });
  for (const file of files) {
    fs.copyFileSync(file.file, path.join(config.migrationsDir, path.basename(file.file)));
    if (fs.existsSync(file.snapshotFile))
      fs.copyFileSync(file.snapshotFile, path.join(config.migrationsDir, 'meta', path.basename(file.snapshotFile)));
  }
  return source;
}
