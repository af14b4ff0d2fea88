/**
 * Reads and writes document rows with raw prepared statements (bun:sqlite caches them by SQL text):
 * on the hot read path this keeps most of bare SQLite's speed (see docs/architecture.md).
 */
import type { Database } from 'bun:sqlite';
import type { Entity } from '../config/types.ts';
import { quote, type SQLPart } from '../query/where.ts';
import { badRequest } from '../errors.ts';

type Row = Record<string, unknown>;

/** `from` replaces the table with a derived one of the same columns (draft lists). */
export function selectRows(sqlite: Database, entity: Entity, where: SQLPart | null, orderBy: string, limit: number, offset: number, from: SQLPart | null = null): Row[] {
  const sql = `SELECT * FROM ${from ? `${from.sql} AS ${quote(entity.table)}` : quote(entity.table)}${where ? ` WHERE ${where.sql}` : ''} ORDER BY ${orderBy} LIMIT ? OFFSET ?`;
  return sqlite.query<Row, any[]>(sql).all(...(from?.params ?? []), ...(where?.params ?? []), limit, offset);
}

export function countRows(sqlite: Database, entity: Entity, where: SQLPart | null, from: SQLPart | null = null): number {
  const sql = `SELECT count(*) AS n FROM ${from ? `${from.sql} AS ${quote(entity.table)}` : quote(entity.table)}${where ? ` WHERE ${where.sql}` : ''}`;
  return (sqlite.query<{ n: number }, any[]>(sql).get(...(from?.params ?? []), ...(where?.params ?? [])) as { n: number }).n;
}

export function selectRowById(sqlite: Database, entity: Entity, id: number, where: SQLPart | null = null): Row | null {
  const sql = `SELECT * FROM ${quote(entity.table)} WHERE "id" = ?${where ? ` AND ${where.sql}` : ''}`;
  return sqlite.query<Row, any[]>(sql).get(id, ...(where?.params ?? [])) ?? null;
}

export function selectRowsByIds(sqlite: Database, entity: Entity, ids: number[], where: SQLPart | null): Row[] {
  if (ids.length === 0) return [];
  const sql = `SELECT * FROM ${quote(entity.table)} WHERE "id" IN (SELECT value FROM json_each(?))${where ? ` AND ${where.sql}` : ''}`;
  return sqlite.query<Row, any[]>(sql).all(JSON.stringify(ids), ...(where?.params ?? []));
}

export function existingIds(sqlite: Database, table: string, ids: number[]): Set<number> {
  if (ids.length === 0) return new Set();
  const rows = sqlite.query<{ id: number }, [string]>(`SELECT "id" FROM ${quote(table)} WHERE "id" IN (SELECT value FROM json_each(?))`).all(JSON.stringify(ids));
  return new Set(rows.map((r) => r.id));
}

export function insertRow(sqlite: Database, entity: Entity, row: Row): number {
  const columns = Object.keys(row);
  const sql = `INSERT INTO ${quote(entity.table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
  return Number(withUniqueErrors(entity, () => sqlite.query(sql).run(...(Object.values(row) as any[]))).lastInsertRowid);
}

export function updateRow(sqlite: Database, entity: Entity, id: number, row: Row): void {
  const columns = Object.keys(row);
  if (columns.length === 0) return;
  const sql = `UPDATE ${quote(entity.table)} SET ${columns.map((c) => `${quote(c)} = ?`).join(', ')} WHERE "id" = ?`;
  withUniqueErrors(entity, () => sqlite.query(sql).run(...(Object.values(row) as any[]), id));
}

export function deleteRow(sqlite: Database, entity: Entity, id: number): void {
  sqlite.query(`DELETE FROM ${quote(entity.table)} WHERE "id" = ?`).run(id);
}

/**
 * Drafts are stored beside the live row, where the unique index does not see them: a draft's unique values
 * are checked against the other documents by hand (a 400 naming the field, like the index's own).
 */
export function assertUniqueAmongOthers(sqlite: Database, entity: Entity, id: number, row: Row): void {
  for (const field of entity.fields) {
    const value = row[field.name];
    if (!field.unique || value === null || value === undefined) continue;
    const clash = sqlite.query(`SELECT 1 FROM ${quote(entity.table)} WHERE ${quote(field.name)} = ? AND "id" <> ? LIMIT 1`).get(value as string, id);
    if (clash) throw badRequest('Value must be unique.', field.name);
  }
}

/** A broken unique index becomes a 400 naming the field. */
function withUniqueErrors<T>(entity: Entity, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    const match = /UNIQUE constraint failed: [^.]+\.(\w+)/.exec(message);
    if (match) throw badRequest('Value must be unique.', match[1]);
    throw error;
  }
}
