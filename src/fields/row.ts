/**
 * Maps between a stored document (every locale, plain values) and a table row (columns, JSON). Rows read
 * back alike on both engines (JSON columns as JSON text); values to write go through the engine's dialect.
 */
import { anyFieldInTree, isColumnField } from '../config/field-tree.ts';
import { isPolymorphic, isStoredField } from '../config/relation-targets.ts';
import type { Entity, SanitizedField } from '../config/types.ts';
import type { Dialect } from '../db/store.ts';
import { visitValues } from './walk-values.ts';

type Row = Record<string, unknown>;
type Codec = { name: string; encode(v: unknown, dialect: Dialect): unknown; decode(v: unknown): unknown };

const plain: Omit<Codec, 'name'> = { encode: (v) => (v === undefined ? null : v), decode: (v) => v };
const json: Omit<Codec, 'name'> = {
  encode: (v, dialect) => (v === undefined || v === null ? null : dialect.encodeJSON(v)),
  decode: (v) => (typeof v === 'string' ? JSON.parse(v) : null),
};
const boolean: Omit<Codec, 'name'> = {
  encode: (v) => (v === undefined || v === null ? null : v ? 1 : 0),
  decode: (v) => (v === null || v === undefined ? null : v === 1 || v === true),
};

function codecFor(field: SanitizedField): Codec {
  if (!isColumnField(field)) return { name: field.name, ...json };
  if (field.type === 'checkbox') return { name: field.name, ...boolean };
  return { name: field.name, ...plain };
}

const codecs = new WeakMap<Entity, Codec[]>();
function entityCodecs(entity: Entity): Codec[] {
  let list = codecs.get(entity);
  if (!list) {
    list = entity.fields.filter(isStoredField).map(codecFor);
    if (entity.drafts) list.push({ name: 'status', ...plain });
    if (entity.kind === 'collection' && entity.trash) list.push({ name: 'deletedAt', ...plain });
    codecs.set(entity, list);
  }
  return list;
}

/** A row from the database → the stored document (`id`, fields, `status`, `createdAt`, `updatedAt`). */
export function rowToDoc(entity: Entity, row: Row): Row {
  const doc: Row = { id: row.id };
  for (const codec of entityCodecs(entity)) doc[codec.name] = codec.decode(row[codec.name]);
  doc.createdAt = row.createdAt;
  doc.updatedAt = row.updatedAt;
  if (hasPolymorphic(entity.fields)) orderPolymorphicKeys(entity.fields, doc);
  return doc;
}

const hasPolymorphic = anyFieldInTree(isPolymorphic);

/**
 * A polymorphic value reads `{ relationTo, value }` on every engine: a JSON store may hand its keys back in
 * its own order (PostgreSQL's jsonb sorts them by length), so they are put back in the written order here,
 * where every stored document is read.
 */
function orderPolymorphicKeys(fields: SanitizedField[], doc: Row): void {
  const ordered = (item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const { relationTo, value, ...rest } = item as Row;
    return { relationTo, value, ...rest };
  };
  visitValues(
    fields,
    doc,
    isPolymorphic,
    ({ holder, key, value }) => {
      holder[key] = Array.isArray(value) ? value.map(ordered) : ordered(value);
    },
    { keyedByLocale: true },
  );
}

/** The columns of a stored document (only the keys it has). */
export function docToRow(entity: Entity, doc: Row, dialect: Dialect): Row {
  const row: Row = {};
  for (const codec of entityCodecs(entity))
    if (codec.name in doc) row[codec.name] = codec.encode(doc[codec.name], dialect);
  for (const key of ['createdAt', 'updatedAt'] as const) if (key in doc) row[key] = doc[key];
  return row;
}
