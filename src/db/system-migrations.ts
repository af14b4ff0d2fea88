/**
 * The CMS's system-table migrations, embedded in the binary.
 *
 * Source of truth: the repo's migrations/ folder as drizzle-kit writes it
 * (migrations/meta/_journal.json + migrations/NNNN_tag.sql). The list below
 * comes from src/db/system-migrations.generated.ts, which
 * scripts/generate-embedded.ts writes with static
 * `import … with { type: 'text' }` lines, so the same code works from source
 * and inside the compiled binary. `bun run build` regenerates it; so does
 * `bun scripts/generate-embedded.ts --drizzle-generate`.
 */
import { createHash } from 'node:crypto';
import type { MigrationMeta } from 'drizzle-orm/migrator';
import { generatedSystemMigrations } from './system-migrations.generated.ts';
import { STATEMENT_BREAKPOINT } from './migration-statements.ts';

export interface SystemMigration {
  /** drizzle-kit's tag, e.g. `0000_initial`. */
  tag: string;
  /** The SQL file's contents, statements separated by `--> statement-breakpoint`. */
  sql: string;
  /** The journal's `when` (ms since epoch); drizzle orders and tracks migrations by it. */
  when: number;
}

/** In journal order. Empty while the journal has no entries. */
export const systemMigrations: SystemMigration[] = generatedSystemMigrations;

/**
 * drizzle's MigrationMeta list, as `readMigrationFiles()` would build it from
 * the folder, for `db.dialect.migrate(migrations, db.session, config)`.
 */
export function toDrizzleMigrations(list: readonly SystemMigration[] = systemMigrations): MigrationMeta[] {
  return list.map((m) => ({
    sql: m.sql.split(STATEMENT_BREAKPOINT),
    bps: true,
    folderMillis: m.when,
    hash: createHash('sha256').update(m.sql).digest('hex'),
  }));
}
