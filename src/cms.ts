/**
 * The running instance: sanitized config, database, clock, event stream and secret. Built once by
 * `createCMS`, shared by REST, the Local API, the job runner and the command line.
 */
import type { Database } from 'bun:sqlite';
import { loadConfig, type LoadOptions } from './config/load.ts';
import type { SanitizedConfig, StorageAdapter } from './config/types.ts';
import { applySystemMigrations, openDatabase, type DB } from './db/connection.ts';
import { applyMigrationFiles, diffConfig, writeMigrationFile, DESTRUCTIVE_HINT } from './db/schema-migrate.ts';
import { createEventStream, type EventStream } from './events/change-events.ts';
import { systemClock, isoNow, type Clock } from './clock.ts';
import { resolveSecret } from './secret.ts';
import { ConfigError } from './errors.ts';
import { setDefaultCMS } from './auth/user-helpers.ts';
import { startWebhooks } from './webhooks/start-webhooks.ts';
import { setNativeDir } from './uploads/sharp-loader.ts';
import { createStorage } from './uploads/storage/select.ts';

export type Logger = { info(...a: unknown[]): void; warn(...a: unknown[]): void; error(...a: unknown[]): void };

export type CMS = {
  config: SanitizedConfig;
  sqlite: Database;
  db: DB;
  clock: Clock;
  events: EventStream;
  secret: string;
  log: Logger;
  storage: StorageAdapter;
  /** Things to stop on close (timers, job loop, pending sends), run in reverse order. */
  closers: (() => void | Promise<void>)[];
  close(): Promise<void>;
};

export type CreateOptions = LoadOptions & {
  clock?: Clock;
  log?: Logger;
  /** `auto` (default) applies pending files and additive changes; `none` leaves the schema alone (CLI migrate commands). */
  migrate?: 'auto' | 'none';
};

export async function createCMS(options: CreateOptions = {}): Promise<CMS> {
  const config = await loadConfig(options);
  const clock = options.clock ?? systemClock;
  const log = options.log ?? console;
  const { sqlite, db } = openDatabase(config.databasePath);
  setNativeDir(config.dataDir);
  let storage: StorageAdapter;
  try {
    applySystemMigrations(db);
    if (options.migrate !== 'none') await migrateOnStart(config, sqlite, clock, log);
    storage = await createStorage(config);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const cms: CMS = {
    config,
    sqlite,
    db,
    clock,
    events: createEventStream(),
    secret: resolveSecret(config.secret, config.dataDir),
    log,
    storage,
    closers: [],
    async close() {
      for (const closer of cms.closers.splice(0).reverse()) await closer();
      sqlite.close();
      setDefaultCMS(null);
    },
  };
  if (config.webhooks.length > 0) startWebhooks(cms);
  setDefaultCMS(cms);
  return cms;
}

/** CONTRACT §1: pending files are applied; additive config changes are written to a file and applied; destructive ones stop start-up. */
async function migrateOnStart(config: SanitizedConfig, sqlite: Database, clock: Clock, log: Logger): Promise<void> {
  const applied = applyMigrationFiles(sqlite, config.migrationsDir, isoNow(clock));
  if (applied.length) log.info(`applied migrations: ${applied.join(', ')}`);
  const change = await diffConfig(config);
  if (!change) return;
  if (change.destructive.length) {
    throw new ConfigError(`The config asks for a change that would lose data: ${change.destructive.join('; ')}. ${DESTRUCTIVE_HINT}`);
  }
  const file = writeMigrationFile(config.migrationsDir, applied.length || hasAnyMigration(sqlite) ? 'config_change' : 'init', change,
    ['Written by cms serve: an additive change from the config.']);
  applyMigrationFiles(sqlite, config.migrationsDir, isoNow(clock));
  log.info(`schema updated from the config: ${file.file}`);
}

function hasAnyMigration(sqlite: Database): boolean {
  return Boolean(sqlite.query('SELECT 1 FROM _cms_schema_migrations LIMIT 1').get());
}
