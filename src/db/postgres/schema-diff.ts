/**
 * What applying the config would change on PostgreSQL, through drizzle-kit's PostgreSQL API, for the
 * schema migrator to write into `migrations/postgres/` beside the config (docs/postgres.md). It has the shape
 * of SQLite's `diffConfig` (../schema-migrate.ts): the caller picks the folder, reads the newest snapshot
 * there and writes the change with `writeMigrationFile`; applying files takes the advisory lock
 * (store.withMigrationLock). drizzle-kit is loaded only when the fingerprint differs (it is slow to load,
 * and works inside the binary only through a dynamic import, docs/build.md).
 */
import { createHash } from 'node:crypto';
import { changeStatements, findDestructive, type PendingChange } from '../schema-change.ts';
import { drizzlePostgresTables, type PostgresTable } from './config-tables.ts';

type Tables = Record<string, { name: string; columns: Record<string, { type: string }> }>;
export type PostgresSnapshot = PendingChange['snapshot'];

/** Null when the database already matches `tables` (the previous snapshot's fingerprint is the same). */
export async function diffPostgres(
  tables: PostgresTable[],
  previous: PostgresSnapshot | null,
  options: { allowDestructive?: boolean } = {},
): Promise<PendingChange | null> {
  const print = createHash('sha256').update(JSON.stringify(tables)).digest('hex');
  if (previous?.fingerprint === print) return null;
  const kit = await import('drizzle-kit/api');
  const next = kit.generateDrizzleJson(drizzlePostgresTables(tables));
  const before = (previous?.drizzle ?? kit.generateDrizzleJson({})) as typeof next;
  // drizzle-kit keys PostgreSQL tables by "schema.name"; messages name the table.
  const destructive = findDestructive(byName(before.tables as Tables), byName(next.tables as Tables));
  const statements = await changeStatements(destructive, options, () => kit.generateMigration(before, next));
  return {
    statements,
    destructive,
    snapshot: { fingerprint: print, drizzle: next as unknown as PostgresSnapshot['drizzle'] },
  };
}

const byName = (tables: Tables) => Object.fromEntries(Object.values(tables).map((t) => [t.name, t]));
