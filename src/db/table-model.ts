/**
 * The tables the config asks for, as plain data: one table per collection and global, a real column per
 * top-level single-value field, JSON text for the rest (localized values, hasMany, arrays, groups, json).
 * The schema migrator turns this into drizzle tables for drizzle-kit to diff.
 */
import { SYSTEM_COLUMNS } from '../config/builtin-collections.ts';
import { isColumnField } from '../config/field-tree.ts';
import { isStoredField } from '../config/relation-targets.ts';
import type { Entity, SanitizedConfig, SanitizedField } from '../config/types.ts';
import { deliveriesTable } from './deliveries-table.ts';

export type ColumnType = 'text' | 'integer' | 'real';
export type ColumnModel = { name: string; type: ColumnType; notNull?: boolean; primaryKey?: boolean };
export type IndexModel = { name: string; columns: string[]; unique: boolean };
export type TableModel = { name: string; columns: ColumnModel[]; indexes: IndexModel[] };

export function columnType(field: SanitizedField): ColumnType {
  if (!isColumnField(field)) return 'text';
  if (field.type === 'number') return 'real';
  if (field.type === 'checkbox' || field.type === 'relationship' || field.type === 'upload') return 'integer';
  return 'text';
}

export function entityTable(entity: Entity): TableModel {
  const t = entity.table;
  const columns: ColumnModel[] = [{ name: 'id', type: 'integer', primaryKey: true }];
  for (const field of entity.fields.filter(isStoredField)) columns.push({ name: field.name, type: columnType(field) });
  if (entity.kind === 'collection')
    for (const c of SYSTEM_COLUMNS[entity.slug] ?? []) columns.push({ name: c.name, type: c.type });
  if (entity.drafts) columns.push({ name: 'status', type: 'text' });
  if (entity.kind === 'collection' && entity.trash) columns.push({ name: 'deletedAt', type: 'text' });
  columns.push({ name: 'createdAt', type: 'text', notNull: true }, { name: 'updatedAt', type: 'text', notNull: true });

  const indexes: IndexModel[] = [];
  const add = (cols: string[], unique: boolean) => {
    const name = `${t}_${cols.join('_')}_${unique ? 'unique' : 'idx'}`;
    if (!indexes.some((i) => i.name === name)) indexes.push({ name, columns: cols, unique });
  };
  if (entity.kind === 'collection') {
    add(['createdAt'], false);
    // Listing published documents newest first is the most common query of a drafts collection.
    if (entity.drafts) add(['status', 'createdAt'], false);
    if (entity.trash) add(['deletedAt'], false);
    for (const field of entity.fields) {
      if (field.unique) add([field.name], true);
      else if (field.index || ((field.type === 'relationship' || field.type === 'upload') && isColumnField(field)))
        add([field.name], false);
    }
    for (const index of entity.indexes) add(index.fields, Boolean(index.unique));
  }
  return { name: t, columns, indexes };
}

/** Per config table, the fields stored as JSON text (groups, arrays, blocks, hasMany, …) rather than a column of their own type. */
export function jsonColumnsByTable(config: SanitizedConfig): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>();
  for (const entity of [...config.collections, ...config.globals]) {
    map.set(
      entity.table,
      new Set(entity.fields.filter((f) => isStoredField(f) && !isColumnField(f)).map((f) => f.name)),
    );
  }
  return map;
}

export function configTables(config: SanitizedConfig): TableModel[] {
  const tables = [...config.collections, ...config.globals].map(entityTable);
  // Webhook deliveries exist only when webhooks are configured (docs/webhooks.md).
  if (config.webhooks.length > 0) tables.push(deliveriesTable);
  return tables;
}
