/**
 * Builds the running instance (its type is in cms.ts): loads the config, opens the database, migrates it,
 * and starts every feature that follows the instance's changes (realtime log, search index, audit log,
 * webhooks). Only the command line, the Local API and the package's entry import it.
 */
import { loadConfig, type LoadOptions } from './config/load.ts';
import type { SanitizedConfig, StorageAdapter } from './config/types.ts';
import { openStore } from './db/open-store.ts';
import type { Store } from './db/store.ts';
import { applyMigrationFiles, diffConfig, writeMigrationFile, DESTRUCTIVE_HINT } from './db/schema-migrate.ts';
import { adoptBuiltInHistory } from './db/built-in-history.ts';
import { requireExistingDatabase, verifySchema } from './db/verify-schema.ts';
import { ensureChangeTriggers } from './db/change-triggers.ts';
import { createEventStream } from './events/change-events.ts';
import { systemClock, isoNow, type Clock } from './clock.ts';
import { resolveSecret } from './secret.ts';
import { ConfigError } from './errors.ts';
import { setDefaultCMS } from './default-cms.ts';
import { startWebhooks } from './webhooks/start-webhooks.ts';
import { recordAuditEntries } from './audit/record-changes.ts';
import { setNativeDir } from './uploads/sharp-loader.ts';
import { createStorage } from './uploads/storage/select.ts';
import { createBackgroundTasks } from './background-tasks.ts';
import { startupMark } from './startup-timing.ts';
import type { CMS } from './cms.ts';
import type { Logger } from './logger.ts';
import { recordChanges } from './realtime/change-log.ts';
import { ensureSearchIndexes, indexChanges } from './search/search-index.ts';

export type CreateOptions = LoadOptions & {
  clock?: Clock;
  log?: Logger;
  /**
   * `auto` (default) applies pending files and additive changes; `none` leaves the schema alone (CLI migrate
   * commands); `verify` changes nothing and refuses a database whose schema is behind (`getCMS({ migrate: false })`).
   */
  migrate?: 'auto' | 'none' | 'verify';
};

export async function createCMS(options: CreateOptions = {}): Promise<CMS> {
  startupMark('createCMS');
  const config = await loadConfig(options);
  startupMark('config loaded');
  const clock = options.clock ?? systemClock;
  const log = options.log ?? console;
  if (options.migrate === 'verify') requireExistingDatabase(config);
  const store = await openStore(config, () => clock.now());
  startupMark('store open');
  setNativeDir(config.dataDir);
  let storage: StorageAdapter;
  let secret: string;
  try {
    if (options.migrate === 'verify') await verifySchema(config, store);
    else await store.applySystemMigrations();
    startupMark('system migrations');
    if (options.migrate === 'auto' || options.migrate === undefined) {
      await store.withMigrationLock(async () => {
        await migrateOnStart(config, store, clock, log);
        await ensureChangeTriggers(config, store);
      });
    }
    startupMark('config migrations');
    storage = await createStorage(config);
    secret = await resolveSecret(config, store);
    startupMark('storage, secret');
  } catch (error) {
    await store.close();
    throw error;
  }
  const cms: CMS = {
    config,
    store,
    clock,
    events: createEventStream(),
    secret,
    log,
    storage,
    background: createBackgroundTasks(log),
    closers: [],
    async close() {
      for (const closer of cms.closers.splice(0).reverse()) await closer();
      await cms.background.idle();
      await store.close();
      setDefaultCMS(null);
    },
  };
  recordChanges(cms);
  indexChanges(cms);
  if (options.migrate === 'auto' || options.migrate === undefined) await ensureSearchIndexes(cms);
  if (config.audit) cms.events.on(recordAuditEntries(cms));
  if (config.webhooks.length > 0) await startWebhooks(cms);
  if (config.email && !config.serverURL && config.email.allowedHosts.length === 0) {
    log.warn(
      'email: links in mails (password resets, invitations) are sent only for requests to a loopback address until serverURL or email.allowedHosts is set (docs/accounts.md)',
    );
  }
  setDefaultCMS(cms);
  return cms;
}

/** Migrations at start (docs/config.md): pending files are applied; additive config changes are written to a file and applied; destructive ones stop start-up. */
async function migrateOnStart(config: SanitizedConfig, store: Store, clock: Clock, log: Logger): Promise<void> {
  const adopted = adoptBuiltInHistory(config);
  if (adopted)
    log.info(`continued the built-in defaults' migration history from ${adopted} in ${config.migrationsDir}`);
  const applied = await applyMigrationFiles(store, config.migrationsDir, isoNow(clock));
  if (applied.length) log.info(`applied migrations: ${applied.join(', ')}`);
  const change = await diffConfig(config);
  if (!change) return;
  if (change.destructive.length) {
    throw new ConfigError(
      `The config asks for a change that would lose data: ${change.destructive.join('; ')}. ${DESTRUCTIVE_HINT}`,
    );
  }
  const file = writeMigrationFile(
    config.migrationsDir,
    applied.length || (await hasAnyMigration(store)) ? 'config_change' : 'init',
    change,
    ['Written by cms serve: an additive change from the config.'],
  );
  await applyMigrationFiles(store, config.migrationsDir, isoNow(clock));
  // Without a config file (the built-in defaults, or a config object) there is no project file to point at:
  // the defaults' schema is the binary's own, with nothing for a newcomer to review or commit.
  if (config.configPath) log.info(`schema updated from the config: ${file.file}`);
}

async function hasAnyMigration(store: Store): Promise<boolean> {
  return Boolean(await store.get('SELECT 1 AS "found" FROM "_cms_schema_migrations" LIMIT 1'));
}
