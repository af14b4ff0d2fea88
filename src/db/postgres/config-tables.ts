/**
 * The config's tables on PostgreSQL: the same tables, columns and indexes as ../table-model.ts describes,
 * with PostgreSQL's column types.
 * - `id`: `integer DEFAULT cms_next_id('<table>')`, positive per table from 1 like SQLite's AUTOINCREMENT
 *   and, unlike an identity, without gaps after a failed insert (the counter lives in `_cms_ids` and rolls
 *   back with the insert); `migrate:engine` copies rows with their ids and sets the counters.
 * - Other integer columns: `bigint`. They hold epoch-ms times (webhook deliveries) beside ids and 1/0
 *   checkboxes (booleans are integers on both engines, see ./dialect.ts); the store reads int8 as numbers.
 * - Numbers: `double precision`, like SQLite's REAL (and read back as JS numbers, unlike numeric).
 * - JSON-stored fields (localized, hasMany, arrays, groups, json): `jsonb`, queryable through the dialect.
 */
import { sql } from 'drizzle-orm';
import { bigint, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SanitizedConfig } from '../../config/types.ts';
import { configTables, jsonColumnsByTable, type IndexModel } from '../table-model.ts';

export type PostgresColumnType = 'integer' | 'bigint' | 'double precision' | 'text' | 'jsonb';
/** `nextId`: the id column, defaulting to `cms_next_id('<table>')` (no gaps after failed inserts, like SQLite). */
export type PostgresColumn = {
  name: string;
  type: PostgresColumnType;
  notNull?: boolean;
  primaryKey?: boolean;
  nextId?: boolean;
};
export type PostgresTable = { name: string; columns: PostgresColumn[]; indexes: IndexModel[] };

export function postgresTables(config: SanitizedConfig): PostgresTable[] {
  const jsonColumns = jsonColumnsByTable(config);
  return configTables(config).map((table) => {
    const json = jsonColumns.get(table.name);
    const columns = table.columns.map((c): PostgresColumn => {
      const column = { name: c.name, notNull: c.notNull, primaryKey: c.primaryKey };
      if (c.primaryKey && c.type === 'integer') return { ...column, type: 'integer', nextId: true };
      if (c.type === 'integer') return { ...column, type: 'bigint' };
      if (c.type === 'real') return { ...column, type: 'double precision' };
      return { ...column, type: json?.has(c.name) ? 'jsonb' : 'text' };
    });
    return { name: table.name, columns, indexes: table.indexes };
  });
}

/** drizzle pg-core tables for drizzle-kit to diff (the keys are only names for drizzle-kit). */
export function drizzlePostgresTables(models: PostgresTable[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const model of models) {
    const columns: Record<string, any> = {};
    for (const c of model.columns) {
      let col: any = builders[c.type](c.name);
      if (c.nextId) col = col.default(sql.raw(`cms_next_id('${model.name.replaceAll("'", "''")}')`));
      if (c.primaryKey) col = col.primaryKey();
      else if (c.notNull) col = col.notNull();
      columns[c.name] = col;
    }
    out[model.name] = pgTable(model.name, columns, (t: any) =>
      model.indexes.map((i) =>
        (i.unique ? uniqueIndex(i.name) : index(i.name)).on(...(i.columns.map((c) => t[c]) as [any])),
      ),
    );
  }
  return out;
}

const builders: Record<PostgresColumnType, (name: string) => unknown> = {
  integer: (name) => integer(name),
  bigint: (name) => bigint(name, { mode: 'number' }),
  'double precision': (name) => doublePrecision(name),
  text: (name) => text(name),
  jsonb: (name) => jsonb(name),
};
