/** Opens the engine the sanitized config chose (docs/postgres.md): SQLite beside the config, or PostgreSQL. */
import type { SanitizedConfig } from '../config/types.ts';
import type { Store } from './store.ts';
import { openSqliteStore } from './sqlite/store.ts';

export async function openStore(
  config: Pick<SanitizedConfig, 'databaseEngine' | 'databasePath' | 'databasePool'>,
  now?: () => number,
): Promise<Store> {
  if (config.databaseEngine === 'postgres') {
    // Loaded only for PostgreSQL: a SQLite server never pays for the PostgreSQL store at start.
    const { createPostgresStore } = await import('./postgres/store.ts');
    return createPostgresStore(config.databasePath, { poolSize: config.databasePool, now });
  }
  return openSqliteStore(config.databasePath);
}
