/** Picks the engine from the `database` setting (CONTRACT §9): a `postgres://` URL or a SQLite file path. */
import { ConfigError } from '../errors.ts';
import type { Store } from './store.ts';
import { openSqliteStore } from './sqlite/store.ts';

export const isPostgresUrl = (database: string) => /^postgres(ql)?:\/\//i.test(database);

export async function openStore(database: string): Promise<Store> {
  if (isPostgresUrl(database)) throw new ConfigError('PostgreSQL is not supported by this build yet.');
  return openSqliteStore(database);
}
