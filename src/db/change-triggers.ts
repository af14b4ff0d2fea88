/**
 * The triggers that count changes of every config table in `_cms_changes` (the response cache's proof
 * that nothing changed, src/cache/). Made at start for tables that lack them, after the schema is
 * migrated: the tables come from the config, and a SQLite table rebuild drops its triggers with it.
 * `_cms_versions` has its own, from the system migrations. Being triggers, they count every write: this
 * process, the CLI, a Local API script, another instance, even hand-written SQL.
 */
import type { SanitizedConfig } from '../config/types.ts';
import type { Store } from './store.ts';

export async function ensureChangeTriggers(config: SanitizedConfig, store: Store): Promise<void> {
  const tables = [...config.collections, ...config.globals].map((entity) => entity.table);
  const present = new Set(
    (await store.all<{ table: string }>(store.dialect.tablesWithChangeTriggers)).map((r) => r.table),
  );
  const missing = tables.filter((table) => !present.has(table));
  if (missing.length === 0) return;
  await store.transaction(async (tx) => {
    for (const table of missing) for (const statement of store.dialect.changeTriggers(table)) await tx.exec(statement);
  });
}
