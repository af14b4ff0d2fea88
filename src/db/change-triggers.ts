/**
 * The triggers that count changes of every config table in `_cms_changes` (the response cache's proof
 * that nothing changed, src/cache/). Made at start for tables that lack them, after the schema is
 * migrated: the tables come from the config, and a SQLite table rebuild drops its triggers with it.
 * `_cms_versions` has its own, from the system migrations. Being triggers, they count every write: this
 * process, the CLI, a Local API script, another instance, even hand-written SQL.
 */
import type { SanitizedConfig } from '../config/types.ts';
import { rowsCounter, type Queryable, type Store } from './store.ts';

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

/**
 * Counts a change of `table` by hand, for a write its triggers do not see: a rebuilt search index is derived
 * from the table, and what was kept on the strength of the old count must be computed again. Its row
 * counter moves too, without a row added or a rewrite noted: a kept count brought up to date from the rows
 * written counts again (src/db/rows-added.ts).
 */
export async function countChange(db: Queryable, table: string): Promise<void> {
  for (const name of [table, rowsCounter(table)])
    await db.run(
      'INSERT INTO "_cms_changes" ("name", "version") VALUES (?, 1) ON CONFLICT ("name") DO UPDATE SET "version" = "_cms_changes"."version" + 1',
      [name],
    );
}
