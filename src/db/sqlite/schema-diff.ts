/**
 * What applying the config would change on SQLite, through drizzle-kit's SQLite API: the counterpart of
 * ../postgres/schema-diff.ts. Loaded by ../schema-migrate.ts only once the config's fingerprint differs
 * from the newest snapshot's, so a server whose schema is current never loads drizzle (its table
 * builders) or drizzle-kit (~100 ms, and inside the binary only through a dynamic import, docs/build.md).
 */
import { integer, real, sqliteTable, text, index, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { TableModel } from '../table-model.ts';
import { changeStatements, findDestructive, type PendingChange, type Snapshot } from '../schema-change.ts';

function drizzleTables(models: TableModel[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const model of models) {
    const columns: Record<string, any> = {};
    for (const c of model.columns) {
      let col: any = c.type === 'integer' ? integer(c.name) : c.type === 'real' ? real(c.name) : text(c.name);
      if (c.primaryKey) col = col.primaryKey({ autoIncrement: true });
      else if (c.notNull) col = col.notNull();
      columns[c.name] = col;
    }
    out[model.name] = sqliteTable(model.name, columns, (t: any) =>
      model.indexes.map((i) =>
        (i.unique ? uniqueIndex(i.name) : index(i.name)).on(...(i.columns.map((c) => t[c]) as [any])),
      ),
    );
  }
  return out;
}

/** The change from `previous` (null: an empty database) to `tables`, whose fingerprint is `print`. */
export async function diffSqlite(
  tables: TableModel[],
  print: string,
  previous: Snapshot | null,
  options: { allowDestructive?: boolean } = {},
): Promise<PendingChange> {
  const kit = await import('drizzle-kit/api');
  const empty = await kit.generateSQLiteDrizzleJson({});
  const next = await kit.generateSQLiteDrizzleJson(drizzleTables(tables));
  const before = (previous?.drizzle ?? empty) as typeof next;
  const destructive = findDestructive(previous?.drizzle.tables ?? {}, next.tables as Snapshot['drizzle']['tables']);
  const statements = await changeStatements(destructive, options, () => kit.generateSQLiteMigration(before, next));
  return { statements, destructive, snapshot: { fingerprint: print, drizzle: next as Snapshot['drizzle'] } };
}
