/**
 * The documents of a collection matching search terms, best first, as the caller may search them: only
 * the search fields it may read (a field hidden from it can never make a document match), in the read's
 * locale, drafts where the read is a draft read. Lists then apply the read filter and `where` on top
 * (src/operations/find.ts), so access rules work exactly as for lists.
 */
import type { SanitizedCollection } from '../config/types.ts';
import type { QueryRights } from '../query/where.ts';
import type { OperationContext } from '../operations/context.ts';
import { badRequest } from '../errors.ts';
import { parseTerms, type Term } from './terms.ts';
import { searchTable } from './search-index.ts';

/** At most this many matches are ranked per search (the best ones). */
export const MAX_MATCHES = 1000;

export type Ranked = { docId: number; score: number }[];

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

export async function rankedMatches(ctx: OperationContext, collection: SanitizedCollection, input: string | Term[], rights: QueryRights, draft: boolean): Promise<Ranked> {
  if (!collection.search) throw badRequest(`The collection "${collection.slug}" is not searchable (it has no search option).`, 'search');
  const terms = typeof input === 'string' ? parseTerms(input) : input;
  const fields = collection.search.fields;
  const allowed = fields.map((f, i) => (deniedPath(rights, f.path) ? -1 : i)).filter((i) => i >= 0);
  if (allowed.length === 0) return [];
  const { store } = ctx.cms;
  const { sql, params } = store.dialect.search.match(searchTable(collection), fields.length, allowed, terms, searchLocale(ctx), draft, MAX_MATCHES);
  return (await store.all<{ docId: number; score: number }>(sql, params)).map((r) => ({ docId: Number(r.docId), score: Number(r.score) }));
}
