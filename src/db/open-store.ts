/** Opens the engine the sanitized config chose (CONTRACT §9): SQLite beside the config, or PostgreSQL. */
import type { SanitizedConfig } from '../config/types.ts';
import type { Store } from './store.ts';
import { openSqliteStore } from './sqlite/store.ts';
import { createPostgresStore } from './postgres/store.ts';

export async function openStore(config: Pick<SanitizedConfig, 'databaseEngine' | 'databasePath' | 'databasePool'>, now?: () => number): Promise<Store> {
  if (config.databaseEngine === 'postgres') return createPostgresStore(config.databasePath, { poolSize: config.databasePool, now });
  return openSqliteStore(config.databasePath);
}
