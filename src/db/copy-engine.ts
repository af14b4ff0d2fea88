/**
 * Moves a project from one engine to another (`cms migrate:engine`, docs/postgres.md): every row of every config
 * table and system table, ids kept, in batches with a progress callback, then a count check per table.
 * The target must be empty (its schema already made by opening it). Sequences and id counters are set past
 * the copied ids so that new documents continue where the old ones stopped.
 */
import type { SanitizedConfig } from '../config/types.ts';
import { quote, type Row, type Store } from './store.ts';
import { configTables, jsonColumnsByTable } from './table-model.ts';

/** System tables with data worth keeping (the migration bookkeeping is the target's own). */
export const SYSTEM_DATA_TABLES = [
  '_cms_sessions',
  '_cms_login_attempts',
  '_cms_versions',
  '_cms_jobs',
  '_cms_settings',
  '_cms_reset_tokens',
  '_cms_totp',
  '_cms_recovery_codes',
  '_cms_audit_log',
  '_cms_releases',
  '_cms_release_items',
];

export type CopyProgress = { table: string; done: number; total: number };
export type TableCount = { table: string; source: number; target: number };

const BATCH = 500;

const count = async (store: Store, table: string) =>
  (await store.get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS "n" FROM ${quote(table)}`))?.n ?? 0;

/** Config tables (collections, globals, webhook deliveries) and the system tables, as they exist in `store`. */
async function tablesOf(config: SanitizedConfig, store: Store): Promise<string[]> {
  const names = [...configTables(config).map((t) => t.name), ...SYSTEM_DATA_TABLES];
  const present: string[] = [];
  for (const name of names) {
    const exists = store.dialect.tableExists(name);
    if (await store.get(exists.sql, exists.params)) present.push(name);
  }
  return present;
}

/**
 * Refuses a target that holds any content already: the copy keeps ids, and nothing may be overwritten.
 * Settings are the exception: opening the target made its own (a generated secret); they give way to the
 * project's and are cleared here.
 */
export async function prepareEmptyTarget(config: SanitizedConfig, target: Store): Promise<void> {
  for (const table of await tablesOf(config, target)) {
    if (table === '_cms_settings') continue;
    if ((await count(target, table)) > 0)
      throw new Error(
        `the target database is not empty: "${table}" has rows (migrate:engine copies into an empty database only)`,
      );
  }
  await target.run('DELETE FROM "_cms_settings"');
}

export async function copyEngine(
  config: SanitizedConfig,
  source: Store,
  target: Store,
  onProgress: (p: CopyProgress) => void = () => {},
): Promise<TableCount[]> {
  const json = jsonColumnsByTable(config);
  const tables = await tablesOf(config, source);
  for (const table of tables) {
    const total = await count(source, table);
    const asJson = json.get(table) ?? new Set<string>();
    onProgress({ table, done: 0, total });
    await target.transaction(async (tx) => {
      // Ordered by the first column (the key), so batches by LIMIT/OFFSET see every row once.
      for (let done = 0; done < total; done += BATCH) {
        const rows = await source.all<Row>(`SELECT * FROM ${quote(table)} ORDER BY 1 LIMIT ? OFFSET ?`, [BATCH, done]);
        if (rows.length === 0) break;
        const columns = Object.keys(rows[0]);
        const values = rows.map((row) =>
          columns.map((c) =>
            asJson.has(c) && typeof row[c] === 'string' ? tx.dialect.encodeJSON(JSON.parse(row[c] as string)) : row[c],
          ),
        );
        const marks = `(${columns.map(() => '?').join(', ')})`;
        // Both engines cap the parameters of one statement (SQLite 32,766, PostgreSQL 65,535).
        const perInsert = Math.max(1, Math.floor(30_000 / columns.length));
        for (let i = 0; i < values.length; i += perInsert) {
          const chunk = values.slice(i, i + perInsert);
          await tx.run(
            `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES ${chunk.map(() => marks).join(', ')}`,
            chunk.flat(),
          );
        }
        onProgress({ table, done: Math.min(done + rows.length, total), total });
      }
    });
  }
  await target.continueIdsAfterCopy(tables);
  const counts: TableCount[] = [];
  for (const table of tables)
    counts.push({ table, source: await count(source, table), target: await count(target, table) });
  return counts;
}
