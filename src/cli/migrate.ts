/** `cms migrate`, `cms migrate:status`, `cms migrate:create [NAME]`. */
import { createCMS } from '../create-cms.ts';
import { isoNow } from '../clock.ts';
import {
  appliedMigrations,
  applyMigrationFiles,
  diffConfig,
  listMigrationFiles,
  writeMigrationFile,
} from '../db/schema-migrate.ts';
import type { CLIArgs } from './args.ts';

async function open(args: CLIArgs) {
  return createCMS({ configPath: (args.flags.config as string) ?? null, migrate: 'none' });
}

export async function migrateCommand(args: CLIArgs): Promise<void> {
  const cms = await open(args);
  try {
    const done = await appliedMigrations(cms.store);
    const pending = listMigrationFiles(cms.config.migrationsDir).filter((m) => !done.has(m.name));
    let n = 0;
    const applied = await cms.store.withMigrationLock(() =>
      applyMigrationFiles(cms.store, cms.config.migrationsDir, isoNow(cms.clock), (name) => {
        n++;
        process.stdout.write(`[${n}/${pending.length}] applying ${name}\n`);
      }),
    );
    console.log(applied.length ? `applied ${applied.length} migration(s)` : 'nothing to apply');
    const change = await diffConfig(cms.config);
    if (change) console.log('the config has changes no migration file covers yet: run `cms migrate:create`');
  } finally {
    await cms.close();
  }
}

export async function migrateStatusCommand(args: CLIArgs): Promise<void> {
  const cms = await open(args);
  try {
    const applied = await appliedMigrations(cms.store);
    const files = listMigrationFiles(cms.config.migrationsDir);
    if (files.length === 0) console.log(`no migration files in ${cms.config.migrationsDir}`);
    for (const f of files) console.log(`${applied.has(f.name) ? 'applied' : 'pending'}  ${f.name}`);
    const change = await diffConfig(cms.config);
    console.log(
      change
        ? 'config: has changes without a migration file (run `cms migrate:create`)'
        : 'config: in step with the migration files',
    );
  } finally {
    await cms.close();
  }
}

export async function migrateCreateCommand(args: CLIArgs): Promise<void> {
  const cms = await open(args);
  try {
    const change = await diffConfig(cms.config, { allowDestructive: true });
    if (!change) {
      console.log('the config and the migration files agree: nothing to write');
      return;
    }
    const header = change.destructive.length
      ? ['REVIEW: this migration loses data:', ...change.destructive.map((d) => `  ${d}`)]
      : ['Additive change from the config.'];
    const file = writeMigrationFile(cms.config.migrationsDir, args.rest[0] ?? 'config_change', change, header);
    console.log(`wrote ${file.file}\nreview it, then run \`cms migrate\``);
  } finally {
    await cms.close();
  }
}
