/**
 * `getCMS({ migrate: false })` (docs/typescript.md) and `cms export`: the database is used as it is. A script that builds a site
 * must not migrate the database a running server owns, so anything the schema lacks is an error that says
 * which command brings it up to date, and nothing is written.
 */
import fs from 'node:fs';
import type { SanitizedConfig } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { appliedMigrations, diffConfig, listMigrationFiles } from './schema-migrate.ts';
import type { Store } from './store.ts';

/** Before the store opens: a SQLite file that is not there would be created. */
export function requireExistingDatabase(config: SanitizedConfig): void {
  if (config.databaseEngine !== 'sqlite' || config.databasePath === ':memory:' || fs.existsSync(config.databasePath))
    return;
  throw new ConfigError(
    `The database ${config.databaseLabel} does not exist, and opening it without migrating (\`migrate: false\`, \`cms export\`) does not create it. Run \`cms migrate\` first.`,
  );
}

export async function verifySchema(config: SanitizedConfig, store: Store): Promise<void> {
  const system = await store.pendingSystemMigrations();
  const problems: string[] = [];
  if (system > 0) problems.push(`${system} system migration(s) not applied`);
  const done = system > 0 ? new Set<string>() : await appliedMigrations(store);
  const files = listMigrationFiles(config.migrationsDir)
    .filter((m) => !done.has(m.name))
    .map((m) => m.name);
  if (files.length) problems.push(`migration file(s) not applied: ${files.join(', ')}`);
  if (problems.length) {
    throw new ConfigError(
      `The database ${config.databaseLabel} is behind its migrations (${problems.join('; ')}), and opening it without migrating (\`migrate: false\`, \`cms export\`) leaves it as it is. Run \`cms migrate\` first.`,
    );
  }
  if (await diffConfig(config)) {
    throw new ConfigError(
      `The config asks for schema changes no migration file covers, and opening it without migrating (\`migrate: false\`, \`cms export\`) leaves the database as it is. Run \`cms migrate:create\`, then \`cms migrate\` (or start \`cms serve\`, which applies additive changes).`,
    );
  }
}
