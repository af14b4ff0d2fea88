/**
 * Reads and writes document rows with raw SQL through the store (prepared once per SQL text): on the hot
 * read path this keeps most of bare SQLite's speed (see docs/architecture.md). `db` is the store, or the
 * `tx` of the transaction the statement belongs to.
 */
import type { Entity } from '../config/types.ts';
import { quote, type Queryable, type SQLPart } from './store.ts';
import { badRequest } from '../errors.ts';
import { keptListCount } from './kept-counts.ts';
import { DEEP_OFFSET, deepIds } from './deep-ids.ts';
import { rewriting, type CommitWatch } from './rows-rewritten.ts';

type Row = Record<string, unknown>;

export { DEEP_OFFSET, KEPT_IDS } from './deep-ids.ts';

/**
 * `from` replaces the table with a derived one of the same columns (draft lists); a null `limit` reads every
 * row. `dependsOn`: every table the filter may read (the collection's own first); given, a deep page's ids
 * are kept until one of them changes.
 */
export async function selectRows(
  db: Queryable,
  entity: Entity,
  where: SQLPart | null,
  orderBy: string,
  limit: number | null,
  offset: number,
  from: SQLPart | null = null,
  dependsOn: readonly string[] | null = null,
): Promise<Row[]> {
  const table = from ? `${from.sql} AS ${quote(entity.table)}` : quote(entity.table);
  const filter = where ? ` WHERE ${where.sql}` : '';
  const params = [...(from?.params ?? []), ...(where?.params ?? []), ...(limit === null ? [] : [limit, offset])];
  if (limit !== null && offset >= DEEP_OFFSET && !from) {
    const ids = `SELECT "id" FROM ${table}${filter} ORDER BY ${orderBy} LIMIT ? OFFSET ?`;
    if (!dependsOn) return db.all<Row>(`SELECT * FROM ${table} WHERE "id" IN (${ids}) ORDER BY ${orderBy}`, params);
    const found = await deepIds(db, entity.table, where, orderBy, limit, offset, dependsOn);
    if (found.length === 0) return [];
    const byId = db.dialect.inList('"id"', found);
    return db.all<Row>(`SELECT * FROM ${table} WHERE ${byId.sql} ORDER BY ${orderBy}`, byId.params);
  }
  const sql = `SELECT * FROM ${table}${filter} ORDER BY ${orderBy}${limit === null ? '' : ' LIMIT ? OFFSET ?'}`;
  return db.all<Row>(sql, params);
}

/**
 * `dependsOn`: every table the filter may read (the collection's own first); given, and counting the stored
 * rows themselves (no `from`), the count is kept until one of them changes, and brought up to date from the
 * rows added since where the engine allows (./kept-counts.ts keptListCount).
 */
export async function countRows(
  db: Queryable,
  entity: Entity,
  where: SQLPart | null,
  from: SQLPart | null = null,
  dependsOn: readonly string[] | null = null,
): Promise<number> {
  if (dependsOn && !from) return keptListCount(db, entity.table, dependsOn, where);
  const sql = `SELECT CAST(count(*) AS INTEGER) AS "n" FROM ${from ? `${from.sql} AS ${quote(entity.table)}` : quote(entity.table)}${where ? ` WHERE ${where.sql}` : ''}`;
  const params = [...(from?.params ?? []), ...(where?.params ?? [])];
  return Number((await db.get<{ n: number }>(sql, params))!.n);
}

export function selectRowById(
  db: Queryable,
  entity: Entity,
  id: number,
  where: SQLPart | null = null,
): Promise<Row | null> {
  const sql = `SELECT * FROM ${quote(entity.table)} WHERE "id" = ?${where ? ` AND ${where.sql}` : ''}`;
  return db.get<Row>(sql, [id, ...(where?.params ?? [])]);
}

export function selectRowsByIds(db: Queryable, entity: Entity, ids: number[], where: SQLPart | null): Promise<Row[]> {
  if (ids.length === 0) return Promise.resolve([]);
  const byId = db.dialect.inList('"id"', ids);
  const sql = `SELECT * FROM ${quote(entity.table)} WHERE ${byId.sql}${where ? ` AND ${where.sql}` : ''}`;
  return db.all<Row>(sql, [...byId.params, ...(where?.params ?? [])]);
}

export async function existingIds(db: Queryable, table: string, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const byId = db.dialect.inList('"id"', ids);
  const rows = await db.all<{ id: number }>(`SELECT "id" FROM ${quote(table)} WHERE ${byId.sql}`, byId.params);
  return new Set(rows.map((r) => r.id));
}

/** The new row as stored (id, defaults), from `RETURNING *`: reading it back would be a second statement per write. */
export async function insertRow(db: Queryable, entity: Entity, row: Row): Promise<Row> {
  const columns = Object.keys(row);
  const sql = `INSERT INTO ${quote(entity.table)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) RETURNING *`;
  return (await withUniqueErrors(db, () => db.get<Row>(sql, Object.values(row))))!;
}

/**
 * `watch`: the transaction's store and commit, so that what the update does to the kept counts of the
 * collection is noted (./rows-rewritten.ts); without it, they are counted again after it.
 */
export async function updateRow(
  db: Queryable,
  entity: Entity,
  id: number,
  row: Row,
  watch?: CommitWatch,
): Promise<void> {
  const columns = Object.keys(row);
  if (columns.length === 0) return;
  const sql = `UPDATE ${quote(entity.table)} SET ${columns.map((c) => `${quote(c)} = ?`).join(', ')} WHERE "id" = ?`;
  const write = async () => (await db.run(sql, [...Object.values(row), id])).changes;
  await withUniqueErrors(db, () => rewriting(db, entity.table, id, false, watch, write));
}

/** `watch`: as for updateRow. */
export async function deleteRow(db: Queryable, entity: Entity, id: number, watch?: CommitWatch): Promise<void> {
  const write = async () => (await db.run(`DELETE FROM ${quote(entity.table)} WHERE "id" = ?`, [id])).changes;
  await rewriting(db, entity.table, id, true, watch, write);
}

/**
 * Drafts are stored beside the live row, where the unique index does not see them: a draft's unique values
 * are checked against the other documents by hand (a 400 naming the field, like the index's own).
 */
export async function assertUniqueAmongOthers(db: Queryable, entity: Entity, id: number, row: Row): Promise<void> {
  for (const field of entity.fields) {
    const value = row[field.name];
    if (!field.unique || value === null || value === undefined) continue;
    const clash = await db.get(
      `SELECT 1 AS "clash" FROM ${quote(entity.table)} WHERE ${quote(field.name)} = ? AND "id" <> ? LIMIT 1`,
      [value, id],
    );
    if (clash) throw badRequest('Value must be unique.', field.name);
  }
}

/** A broken unique index becomes a 400 naming the field. */
async function withUniqueErrors<T>(db: Queryable, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const field = db.dialect.uniqueViolation(error);
    if (field) throw badRequest('Value must be unique.', field);
    throw error;
  }
}
