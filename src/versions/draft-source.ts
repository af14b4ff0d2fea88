/**
 * What `draft=true` lists read: every live row with its columns taken from its newest pending draft when
 * there is one. Versions hold the stored document as JSON in the same shapes the columns hold (JSON text
 * for structured values, 1/0 for booleans), so `where`, `sort`, the count and access filters run on the
 * draft content unchanged. Without an index on draft content, these lists scan; live reads keep theirs.
 */
import type { SanitizedCollection } from '../config/types.ts';
import { entityTable } from '../db/table-model.ts';
import { quote } from '../query/where.ts';
import type { Dialect, SQLPart, ValueKind } from '../db/store.ts';

const sources = new WeakMap<SanitizedCollection, string>();

export function draftSource(dialect: Dialect, collection: SanitizedCollection): SQLPart {
  let sql = sources.get(collection);
  if (!sql) {
    const columns = entityTable(collection).columns.filter((c) => c.name !== 'id' && c.name !== 'createdAt');
    const kinds: Record<string, ValueKind> = { text: 'text', integer: 'integer', real: 'number' };
    const pick = ({ name, type }: { name: string; type: string }) =>
      `CASE WHEN d."version" IS NULL THEN t.${quote(name)} ELSE ${dialect.jsonValue('d."version"', [name], kinds[type])} END AS ${quote(name)}`;
    sql = `(SELECT t."id", ${columns.map(pick).join(', ')}, t."createdAt" FROM ${quote(collection.table)} t LEFT JOIN (`
      + `SELECT v."parent", v."version" FROM "_cms_versions" v WHERE v."id" IN (`
      + `SELECT max("id") FROM "_cms_versions" WHERE "kind" = 'collection' AND "slug" = ? AND "pending" = 1 GROUP BY "parent")`
      + `) d ON d."parent" = t."id")`;
    sources.set(collection, sql);
  }
  return { sql, params: [collection.slug] };
}
