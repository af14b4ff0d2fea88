// Runs once (on the SQLite pass): compares both engines' system schemas in one run.
/**
 * The two engines' system schemas (src/db/system-schema.ts for SQLite, src/db/postgres/system-schema.ts) are
 * written twice, once per dialect; this holds them to the same tables, columns, nullability, primary keys and
 * indexes, so a table or index added to one is not forgotten in the other (docs/postgres.md). PostgreSQL's
 * own id sequence table `_cms_ids` is the one table SQLite has no need for.
 */
import { expect, test } from 'bun:test';
import { getTableConfig as pgConfig, PgTable } from 'drizzle-orm/pg-core';
import { getTableConfig as sqliteConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import * as postgres from '../../src/db/postgres/system-schema.ts';
import * as sqlite from '../../src/db/system-schema.ts';

const POSTGRES_ONLY = ['_cms_ids'];

type Shape = {
  columns: string[];
  notNull: string[];
  primaryKey: string[];
  indexes: string[];
};

function describeTables(schema: Record<string, unknown>, engine: 'sqlite' | 'postgres'): Record<string, Shape> {
  const tables: Record<string, Shape> = {};
  for (const value of Object.values(schema)) {
    const config =
      engine === 'sqlite' && value instanceof SQLiteTable
        ? sqliteConfig(value)
        : engine === 'postgres' && value instanceof PgTable
          ? pgConfig(value)
          : null;
    if (!config) continue;
    const keyColumns = [
      ...config.columns.filter((c) => c.primary).map((c) => c.name),
      ...config.primaryKeys.flatMap((key) => key.columns.map((c) => c.name)),
    ];
    tables[config.name] = {
      columns: config.columns.map((c) => c.name).sort(),
      notNull: config.columns
        .filter((c) => c.notNull && !keyColumns.includes(c.name))
        .map((c) => c.name)
        .sort(),
      primaryKey: keyColumns.sort(),
      indexes: config.indexes
        .map(
          (i) =>
            `${i.config.name}(${i.config.columns.map((c) => ('name' in c ? c.name : '?')).join(',')})${i.config.unique ? ' unique' : ''}`,
        )
        .sort(),
    };
  }
  return tables;
}

test('both engines declare the same system tables, columns, keys and indexes', () => {
  const onSqlite = describeTables(sqlite, 'sqlite');
  const onPostgres = describeTables(postgres, 'postgres');
  for (const name of POSTGRES_ONLY) delete onPostgres[name];
  expect(Object.keys(onSqlite).length).toBeGreaterThan(10);
  expect(Object.keys(onPostgres).sort()).toEqual(Object.keys(onSqlite).sort());
  for (const name of Object.keys(onSqlite)) expect({ name, ...onPostgres[name] }).toEqual({ name, ...onSqlite[name] });
});
