/**
 * What `draft=true` lists read: every live row with its columns taken from its newest pending draft when
 * there is one. Versions hold the stored document as JSON in the same shapes the columns hold (JSON text
 * for structured values, 1/0 for booleans), so `where`, `sort`, the count and access filters run on the
 * draft content unchanged. Without an index on draft content, these lists scan; live reads keep theirs.
 */
import type { SanitizedCollection } from '../config/types.ts';
import { entityTable } from '../db/table-model.ts';
import { isColumnField } from '../config/field-tree.ts';
import { quote } from '../query/where.ts';
import type { Dialect, SQLPart, ValueKind } from '../db/store.ts';

/** Built once per engine and collection. */
const sources = new WeakMap<Dialect, WeakMap<SanitizedCollection, string>>();

/**
 * The select list of a live row (`t`) whose columns come from a stored version (`d."version"`) where the
 * join found one: every column but `id` and `createdAt`, which stay the row's. `override` replaces the
 * expression of the columns it names.
 */
export function versionColumns(
  dialect: Dialect,
  collection: SanitizedCollection,
  override: Record<string, string> = {},
): string {
  const columns = entityTable(collection).columns.filter((c) => c.name !== 'id' && c.name !== 'createdAt');
  const kinds: Record<string, ValueKind> = { text: 'text', integer: 'integer', real: 'number' };
  // JSON-stored fields stay JSON (jsonb on PostgreSQL, where a CASE cannot mix it with text).
  const json = new Set(collection.fields.filter((f) => !isColumnField(f)).map((f) => f.name));
  const draftValue = (name: string, type: string) =>
    json.has(name) ? dialect.jsonGet('d."version"', [name]) : dialect.jsonValue('d."version"', [name], kinds[type]);
  const pick = ({ name, type }: { name: string; type: string }) =>
    `${override[name] ?? `CASE WHEN d."version" IS NULL THEN t.${quote(name)} ELSE ${draftValue(name, type)} END`} AS ${quote(name)}`;
  return `t."id", ${columns.map(pick).join(', ')}, t."createdAt"`;
}

export function draftSource(dialect: Dialect, collection: SanitizedCollection): SQLPart {
  let cache = sources.get(dialect);
  if (!cache) sources.set(dialect, (cache = new WeakMap()));
  let sql = cache.get(collection);
  if (!sql) {
    sql =
      `(SELECT ${versionColumns(dialect, collection)} FROM ${quote(collection.table)} t LEFT JOIN (` +
      `SELECT v."parent", v."version" FROM "_cms_versions" v WHERE v."id" IN (` +
      `SELECT max("id") FROM "_cms_versions" WHERE "kind" = 'collection' AND "slug" = ? AND "pending" = 1 GROUP BY "parent")` +
      `) d ON d."parent" = t."id")`;
    cache.set(collection, sql);
  }
  return { sql, params: [collection.slug] };
}
