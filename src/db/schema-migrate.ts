/**
 * Keeps the collection tables in step with the config (docs/config.md).
 * Migration files live in `migrations/` beside the config: `NNNN_name.sql`, with the schema snapshot they
 * lead to in `meta/NNNN_snapshot.json`. The newest snapshot is what the database should look like once every
 * file is applied; the config is diffed against it. The engine's diff (sqlite/schema-diff.ts,
 * postgres/schema-diff.ts: drizzle's table builders and drizzle-kit, slow to load) is imported only when
 * it is needed: on SQLite when the config's fingerprint differs from the newest snapshot's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { SanitizedConfig } from '../config/types.ts';
import { configTables, type TableModel } from './table-model.ts';
import type { PendingChange, Snapshot } from './schema-change.ts';
import type { Store } from './store.ts';
import { ConfigError } from '../errors.ts';
import { migrationStatements, STATEMENT_BREAKPOINT } from './migration-statements.ts';

export type MigrationFile = { name: string; file: string; snapshotFile: string };
export type { PendingChange } from './schema-change.ts';

export function fingerprint(tables: TableModel[]): string {
  return createHash('sha256').update(JSON.stringify(tables)).digest('hex');
}

export function listMigrationFiles(dir: string): MigrationFile[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      name: f.replace(/\.sql$/, ''),
      file: path.join(dir, f),
      snapshotFile: path.join(dir, 'meta', `${f.slice(0, 4)}_snapshot.json`),
    }));
}

function latestSnapshot(dir: string): Snapshot | null {
  const files = listMigrationFiles(dir);
  for (let i = files.length - 1; i >= 0; i--) {
    if (fs.existsSync(files[i].snapshotFile)) return JSON.parse(fs.readFileSync(files[i].snapshotFile, 'utf8'));
  }
  return null;
}

/** What applying the config would change, relative to the newest migration file of its engine. Null when nothing. */
export async function diffConfig(
  config: SanitizedConfig,
  options: { allowDestructive?: boolean } = {},
): Promise<PendingChange | null> {
  const previous = latestSnapshot(config.migrationsDir);
  if (config.databaseEngine === 'postgres') {
    const [{ postgresTables }, { diffPostgres }] = await Promise.all([
      import('./postgres/config-tables.ts'),
      import('./postgres/schema-diff.ts'),
    ]);
    return diffPostgres(postgresTables(config), previous, options);
  }
  const tables = configTables(config);
  const print = fingerprint(tables);
  if (previous?.fingerprint === print) return null;
  const { diffSqlite } = await import('./sqlite/schema-diff.ts');
  return diffSqlite(tables, print, previous, options);
}

/** Writes the SQL and snapshot of a change as the next migration file. */
export function writeMigrationFile(
  dir: string,
  name: string,
  change: PendingChange,
  header: string[] = [],
): MigrationFile {
  fs.mkdirSync(path.join(dir, 'meta'), { recursive: true });
  const files = listMigrationFiles(dir);
  const number = files.length ? Number(files[files.length - 1].name.slice(0, 4)) + 1 : 0;
  const safeName = name.replace(/[^\w-]+/g, '_').slice(0, 60) || 'migration';
  const base = `${String(number).padStart(4, '0')}_${safeName}`;
  const body = [...header.map((l) => `-- ${l}`), ...change.statements.map((s) => s.trim().replace(/;?$/, ';'))].join(
    `\n${STATEMENT_BREAKPOINT}\n`,
  );
  const file = path.join(dir, `${base}.sql`);
  const snapshotFile = path.join(dir, 'meta', `${base.slice(0, 4)}_snapshot.json`);
  fs.writeFileSync(snapshotFile, JSON.stringify(change.snapshot, null, 2));
  fs.writeFileSync(file, body + '\n');
  return { name: base, file, snapshotFile };
}

export async function appliedMigrations(store: Store): Promise<Set<string>> {
  return new Set((await store.all<{ name: string }>('SELECT "name" FROM "_cms_schema_migrations"')).map((r) => r.name));
}

/** Applies every migration file not applied yet, each in its own transaction. Returns the names applied. */
export async function applyMigrationFiles(
  store: Store,
  dir: string,
  now: string,
  onProgress?: (name: string) => void,
): Promise<string[]> {
  const done = await appliedMigrations(store);
  const files = listMigrationFiles(dir);
  refuseMissingFiles(done, files, dir);
  const applied: string[] = [];
  for (const migration of files) {
    if (done.has(migration.name)) continue;
    onProgress?.(migration.name);
    const statements = migrationStatements(fs.readFileSync(migration.file, 'utf8'));
    const appliedNow = await store.transaction(async (tx) => {
      // Another process may have applied it since the list was read (SQLite has no lock across processes
      // before this transaction; PostgreSQL's advisory lock makes this a formality).
      if (await tx.get('SELECT 1 AS "found" FROM "_cms_schema_migrations" WHERE "name" = ?', [migration.name]))
        return false;
      for (const statement of statements) await tx.exec(statement);
      await tx.run('INSERT INTO "_cms_schema_migrations" ("name", "appliedAt") VALUES (?, ?)', [migration.name, now]);
      return true;
    });
    if (appliedNow) applied.push(migration.name);
  }
  return applied;
}

/**
 * A database whose history names migrations that are not in the folder (a restore or deploy without the
 * migration files): applying or writing anything on top would fail halfway ("relation already exists")
 * or fork the schema's history, so it stops first and says which files are missing.
 */
function refuseMissingFiles(done: Set<string>, files: MigrationFile[], dir: string): void {
  const present = new Set(files.map((f) => f.name));
  const missing = [...done].filter((name) => !present.has(name)).sort();
  if (!missing.length) return;
  const list =
    missing.length > 5 ? `${missing.slice(0, 5).join(', ')} and ${missing.length - 5} more` : missing.join(', ');
  throw new ConfigError(
    `Migration error: the database has applied ${missing.length} migration file(s) that are not in ${dir}: ${list}. ` +
      "Put the migration files back (they are in every backup: cms restore puts them back; or copy them from the project's repository), then start again; nothing was changed.",
  );
}

export const DESTRUCTIVE_HINT =
  'Run `cms migrate:create` to write a migration for it, review the SQL, then `cms migrate`.';
