/**
 * The documents of a collection matching search terms, best first, as the caller may search them: only
 * the search fields it may read (a field hidden from it can never make a document match), in the read's
 * locale, drafts where the read is a draft read. The read filter and `where` of the list apply on top
 * (src/operations/find.ts), so access rules work exactly as for lists. Only one page is ranked out to the
 * caller and the total is one count: no document row is read before the page is known.
 */
import type { SanitizedCollection } from '../config/types.ts';
import type { SQLPart } from '../db/store.ts';
import { quote, type QueryRights } from '../query/where.ts';
import type { OperationContext } from '../operation-context.ts';
import { badRequest } from '../errors.ts';
import { parseTerms, type Term } from './terms.ts';
import { indexLocales, searchTable } from './search-index.ts';

export type Ranked = { docId: number; score: number }[];

/** What a list reads, as matchDocuments (src/operations/find.ts) works it out. */
export type ReadScope = { where: SQLPart | null; from: SQLPart | null; rights: QueryRights };

const deniedPath = (rights: QueryRights, path: string) => {
  if (!('denied' in rights)) return false;
  const parts = path.split('.');
  return parts.some((_, i) => rights.denied.has(parts.slice(0, i + 1).join('.')));
};

export function searchLocale(ctx: OperationContext): string {
  const l10n = ctx.cms.config.localization;
  if (!l10n) return '';
  return ctx.locale && ctx.locale !== 'all' && l10n.locales.includes(ctx.locale) ? ctx.locale : l10n.defaultLocale;
}

/** `"docId", "score"` of every match for this caller, or null when it may read none of the search fields. */
function matchQuery(
  ctx: OperationContext,
  collection: SanitizedCollection,
  input: string | Term[],
  scope: ReadScope,
): SQLPart | null {
  if (!collection.search)
    throw badRequest(`The collection "${collection.slug}" is not searchable (it has no search option).`, 'search');
  const terms = typeof input === 'string' ? parseTerms(input) : input;
  const fields = collection.search.fields;
  const allowed = fields.map((f, i) => (deniedPath(scope.rights, f.path) ? -1 : i)).filter((i) => i >= 0);
  if (allowed.length === 0) return null;
  const name = searchLocale(ctx);
  const locale = { name, index: Math.max(0, indexLocales(ctx.cms).indexOf(name)) };
  return ctx.cms.store.dialect.search.match(
    searchTable(collection),
    fields.length,
    allowed,
    terms,
    locale,
    Boolean(scope.from),
  );
}

/** The search as a condition on the collection's `"id"`, for lists sorted by something else than rank. */
export function matchFilter(
  ctx: OperationContext,
  collection: SanitizedCollection,
  input: string | Term[],
  scope: ReadScope,
): SQLPart {
  const query = matchQuery(ctx, collection, input, scope);
  return query
    ? { sql: `"id" IN (SELECT "m"."docId" FROM (${query.sql}) AS "m")`, params: query.params }
    : { sql: '1 = 0', params: [] };
}

/**
 * One page of the matches the read lets through, best first (`limit` null: all of them), and how many
 * there are in all. Without a read filter or `where` every match is readable, so the collection's table
 * is not touched at all; with one, the matches are narrowed to the ids it lets through before ranking.
 */
export async function rankedPage(
  ctx: OperationContext,
  collection: SanitizedCollection,
  input: string | Term[],
  scope: ReadScope,
  limit: number | null,
  offset: number,
): Promise<{ ranked: Ranked; total: number }> {
  const query = matchQuery(ctx, collection, input, scope);
  if (!query) return { ranked: [], total: 0 };
  const { store } = ctx.cms;
  const source = scope.from ? `${scope.from.sql} AS ${quote(collection.table)}` : quote(collection.table);
  const readable: SQLPart = scope.where
    ? {
        sql: ` WHERE "m"."docId" IN (SELECT "id" FROM ${source} WHERE ${scope.where.sql})`,
        params: [...(scope.from?.params ?? []), ...scope.where.params],
      }
    : { sql: '', params: [] };
  const body = `FROM (${query.sql}) AS "m"${readable.sql}`;
  const params = [...query.params, ...readable.params];
  const rows = await store.all<{ docId: number; score: number }>(
    `SELECT "m"."docId", "m"."score" ${body} ORDER BY "m"."score" DESC, "m"."docId"${limit === null ? '' : ' LIMIT ? OFFSET ?'}`,
    limit === null ? params : [...params, limit, offset],
  );
  const ranked = rows.map((r) => ({ docId: Number(r.docId), score: Number(r.score) }));
  // A short page (not past the end) already tells the total; otherwise one count, which ranks nothing.
  const known = limit === null || (ranked.length < limit && (ranked.length > 0 || offset === 0));
  const total = known
    ? offset + ranked.length
    : (await store.get<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) AS "n" ${body}`, params))!.n;
  return { ranked, total: Number(total) };
}
