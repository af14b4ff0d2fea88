/**
 * `cms migrate:engine --to postgres://…` (docs/postgres.md): copies this SQLite project's data into an empty
 * PostgreSQL database with a progress line, then checks the count of every table. The target's schema is
 * made by opening it the way `cms serve` would (system migrations, then the config's tables, its migration
 * file written to migrations/postgres/); the generated secret comes along, so sessions, API keys and preview
 * links keep working. The full-text indexes are rebuilt on the target from the copied documents. Uploads stay
 * where the storage setting puts them. Nothing changes on the source.
 */
import { createCMS } from '../create-cms.ts';
import type { CMS } from '../cms.ts';
import { ConfigError } from '../errors.ts';
import { isPostgresUrl } from '../db/postgres/connect.ts';
import { copyEngine, prepareEmptyTarget } from '../db/copy-engine.ts';
import { SECRET_SETTING } from '../secret.ts';
import { writeSetting } from '../db/settings.ts';
import type { CLIArgs } from './args.ts';
import { reindexWithProgress } from './reindex.ts';
import { systemClock } from '../clock.ts';
import { lastChangeIdGiven, markRestore } from '../realtime/change-log.ts';

export async function migrateEngineCommand(args: CLIArgs): Promise<void> {
  const to = args.flags.to as string | undefined;
  if (!to || !isPostgresUrl(to))
    throw new ConfigError('migrate:engine: --to postgres://user:password@host:port/database is required');
  const configPath = (args.flags.config as string) ?? null;
  const source = await createCMS({ configPath, migrate: 'none' });
  let target: CMS | null = null;
  try {
    if (source.config.databaseEngine !== 'sqlite')
      throw new ConfigError(
        'migrate:engine: the project must be on SQLite (unset DATABASE_URL to copy from its database file)',
      );
    target = await createCMS({ configPath, database: to });
    await prepareEmptyTarget(target.config, target.store).catch((error: Error) => {
      throw new ConfigError(`migrate:engine: ${error.message}`);
    });
    console.log(`copying ${source.config.databaseLabel} → ${target.config.databaseLabel}`);
    const interactive = process.stdout.isTTY;
    const counts = await copyEngine(source.config, source.store, target.store, ({ table, done, total }) => {
      const line = `  ${table}: ${done}/${total}`;
      if (interactive) process.stdout.write(`\r${line}\u001b[K`);
      else if (done === total) console.log(line);
    });
    if (interactive) process.stdout.write('\n');
    // The secret signs sessions' CSRF tokens and preview links: the one the SQLite project used goes along.
    await writeSetting(target.store, SECRET_SETTING, source.secret);
    const wrong = counts.filter((c) => c.source !== c.target);
    for (const c of counts)
      console.log(`  ${c.source === c.target ? 'ok  ' : 'DIFF'} ${c.table}: ${c.source} → ${c.target}`);
    if (wrong.length)
      throw new ConfigError(
        `migrate:engine: ${wrong.length} table(s) differ after the copy: ${wrong.map((c) => c.table).join(', ')}`,
      );
    // Realtime clients reconnecting to the new database with their last event id miss nothing.
    await markRestore(target.store, systemClock.now(), await lastChangeIdGiven(source.store));
    // The full-text indexes are derived from the documents: made again on the target rather than copied.
    await reindexWithProgress(target);
    const rows = counts.reduce((n, c) => n + c.target, 0);
    console.log(
      `copied ${rows} rows in ${counts.length} tables; every count matches. Point \`database\` (or DATABASE_URL) at the new database to use it.`,
    );
  } finally {
    await target?.close();
    await source.close();
  }
}
