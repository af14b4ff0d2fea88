/**
 * The documents of a collection matching search terms, best first, as the caller may search them: only
 * the search fields it may read (a field hidden from it can never make a document match), in the read's
 * locale, drafts where the read is a draft read. The read filter and `where` of the list apply on top
 * (src/operations/find.ts), so access rules work exactly as for lists. Only one page is ranked out to the
 * caller and the total is one count: no document row is read before the page is known.
 */
import type { SanitizedCollection } from '../config/types.ts';
import type { SQLPart, Store } from '../db/store.ts';
import type { MatchOptions, PrefixTermsSQL } from '../db/search-sql.ts';
import { keptCount } from '../db/kept-counts.ts';
import { quote, type QueryRights } from '../query/where.ts';
import type { OperationContext } from '../operation-context.ts';
import { badRequest } from '../errors.ts';
import { parseTerms, type Term } from './terms.ts';
import { extrasPresent, indexLocales, newestIndexed, searchTable } from './search-index.ts';
import { bm25Scores } from './bm25.ts';
import { keptSinceAppends } from './kept-answers.ts';
import { indexPending } from './pending-rows.ts';

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

/**
 * How many of the newest matches a search ranks (docs/search.md, "Ranking the newest matches"): scoring is
 * the engine's per-match cost, so a word found in most of a large collection would otherwise score every
 * document before the first page is known.
 */
export const RANKED_MATCHES = 1000;

/** A prefix covering more index terms than this is left to the engine: few of them are common words. */
export const MAX_SPELLED_TERMS = 8;
/** Above every character an index term may hold, so `prefix + TOP` bounds the terms that start with it. */
const TOP = '\u{10ffff}';

/**
 * The terms, with the last word's prefix spelled out as the index terms it covers where the engine would
 * otherwise merge all their entries before the first match (docs/search.md, "How a search is answered").
 * Listed once and kept while no index row is removed or rewritten (src/search/kept-answers.ts): the words
 * of documents added since are looked at for new terms, so a prefix then costs what its whole words cost.
 */
async function spellPrefixes(ctx: OperationContext, collection: SanitizedCollection, terms: Term[]): Promise<Term[]> {
  const { store } = ctx.cms;
  // Without the option there is no index: matchQuery answers that with a 400.
  const spelling = collection.search ? store.dialect.search.prefixTerms?.(searchTable(collection)) : undefined;
  if (!spelling || store.inTransaction) return terms;
  const spell = async (prefix: string) => {
    // Every time it is not kept: a connection whose transaction rolled the table back makes it again.
    await store.all(spelling.setup);
    const found: string[] = [];
    let from = prefix;
    while (found.length <= MAX_SPELLED_TERMS) {
      const row = await store.get<{ term: string }>(spelling.next, [from, prefix + TOP]);
      if (!row) break;
      found.push(row.term);
      // The next term after this one: the smallest text above it.
      from = `${row.term}\u0000`;
    }
    return found.length > MAX_SPELLED_TERMS ? null : found;
  };
  const table = searchTable(collection);
  return Promise.all(
    terms.map(async (t) => {
      if (!t.prefix) return t;
      const prefix = t.words[0];
      const spelled = await keptSinceAppends(
        store,
        collection.table,
        table,
        spelling.next,
        [prefix],
        // The newest id first: a document added while the terms are listed is looked at again next time.
        async () => ({ newest: await newestIndexed(store, table), value: await spell(prefix) }),
        (value, after) => addedTerms(store, spelling, prefix, value, after),
      );
      return spelled?.length ? { ...t, spelled } : t;
    }),
  );
}

/** How many added documents are looked at for new terms of a prefix before it is spelled again instead. */
const MAX_ADDED = 200;

/**
 * A kept spelling of `prefix`, still right after documents were added (`after`: the newest id it was
 * spelled at), or null when it must be spelled again: an added document holds a word under the prefix the
 * spelling lacks, or there are too many to look at. ASCII text is split here; other text by the engine's own
 * tokenizer (`termsOf`), which alone folds it exactly. Null `value` (more terms than are spelled) stays so:
 * terms are only added.
 */
async function addedTerms(
  store: Store,
  spelling: PrefixTermsSQL,
  prefix: string,
  value: string[] | null,
  after: number | null,
): Promise<{ value: string[] | null; newest: number | null } | null> {
  if (after === null) return null;
  const rows = await store.all<Record<string, unknown>>(spelling.added, [after, MAX_ADDED]);
  if (rows.length >= MAX_ADDED) return null;
  const known = new Set(value ?? []);
  const unfolded: string[] = [];
  for (const row of rows)
    for (const [column, text] of Object.entries(row)) {
      if (column === 'docId' || column === 'locale' || column === 'draft' || typeof text !== 'string') continue;
      if (!ASCII.test(text)) unfolded.push(text);
      else
        for (const word of text.toLowerCase().split(/[^a-z0-9]+/))
          if (value && word.startsWith(prefix) && !known.has(word)) return null;
    }
  if (value && unfolded.length > 0) {
    const terms = await termsOf(store, spelling.termsOf, unfolded, prefix);
    if (terms.some((term) => !known.has(term))) return null;
  }
  return { value, newest: rows.length ? Number(rows[rows.length - 1].docId) : after };
}

/** Per store, the last use of its table of texts: one at a time, or one would list or empty another's texts. */
const textsInUse = new WeakMap<Store, Promise<unknown>>();

/** The terms under `prefix` the engine makes of `texts` (SearchSQL.prefixTerms, `termsOf`). */
function termsOf(store: Store, sql: PrefixTermsSQL['termsOf'], texts: string[], prefix: string): Promise<string[]> {
  const run = async () => {
    for (const statement of sql.setup) await store.all(statement);
    await store.all(sql.fill, [JSON.stringify(texts)]);
    try {
      return (await store.all<{ term: string }>(sql.list, [prefix, prefix + TOP])).map((r) => r.term);
    } finally {
      await store.all(sql.empty);
    }
  };
  const result = (textsInUse.get(store) ?? Promise.resolve()).then(run, run);
  textsInUse.set(store, result);
  return result;
}

const ASCII = /^[\x00-\x7f]*$/;

/** The search fields the caller may read, by position: only they can make a document match. */
const searchedColumns = (collection: SanitizedCollection, scope: ReadScope) =>
  (collection.search?.fields ?? []).map((f, i) => (deniedPath(scope.rights, f.path) ? -1 : i)).filter((i) => i >= 0);

/**
 * How many of the newest documents tell how common each term is, where the application ranks
 * (src/search/bm25.ts): counting a term's documents in the whole index is the walk it avoids.
 */
export const SAMPLED_DOCUMENTS = 2000;
/** A term in this share of the sampled rows is common enough for the application to rank instead. */
const COMMON_SHARE = 0.05;

/**
 * The best first of `query`'s matches: scored here from their texts where the engine offers the sample
 * (SearchSQL.sample) and a term is common in it, else by the engine.
 */
async function scoreNewest(
  ctx: OperationContext,
  collection: SanitizedCollection,
  terms: Term[],
  scope: ReadScope,
  query: (texts: boolean) => SQLPart,
): Promise<{ docId: number; score: number }[]> {
  const { store } = ctx.cms;
  const byScore = (a: { docId: number; score: number }, b: { docId: number; score: number }) =>
    b.score - a.score || a.docId - b.docId;
  const fields = collection.search!.fields.length;
  const columns = searchedColumns(collection, scope);
  const sample = store.dialect.search.sample?.(searchTable(collection), fields, columns, terms, SAMPLED_DOCUMENTS);
  const counted = sample ? await store.get<Record<string, number>>(sample.sql, sample.params) : null;
  const stats = counted && {
    rows: Number(counted.rows),
    hits: terms.map((_, i) => Number(counted[`h${i}`])),
  };
  // Only a common term makes the engine's own ranking walk far: rare ones it ranks at once, and exactly.
  if (!stats || stats.hits.every((hits) => hits < stats.rows * COMMON_SHARE)) {
    const { sql, params } = query(false);
    return (await store.all<{ docId: number; score: number }>(sql, params))
      .map((r) => ({ docId: Number(r.docId), score: Number(r.score) }))
      .sort(byScore);
  }
  const { sql, params } = query(true);
  const rows = await store.all<Record<string, unknown>>(sql, params);
  const texts = rows.map((r) => ({
    texts: Array.from({ length: fields }, (_, i) => (r[`t${i}`] as string | null) ?? null),
  }));
  const scores = bm25Scores(texts, terms, columns, stats);
  return rows.map((r, i) => ({ docId: Number(r.docId), score: scores[i] })).sort(byScore);
}

/** What the index is asked for this caller: its table, the columns it may search, locale and state. */
function indexArgs(ctx: OperationContext, collection: SanitizedCollection, scope: ReadScope) {
  if (!collection.search)
    throw badRequest(`The collection "${collection.slug}" is not searchable (it has no search option).`, 'search');
  const allowed = searchedColumns(collection, scope);
  const name = searchLocale(ctx);
  const locale = { name, index: Math.max(0, indexLocales(ctx.cms).indexOf(name)) };
  return [searchTable(collection), collection.search.fields.length, allowed, locale, Boolean(scope.from)] as const;
}

/** One locale and no drafts: the index holds live rows in this locale only. */
const allLive = (ctx: OperationContext, collection: SanitizedCollection, scope: ReadScope) =>
  indexLocales(ctx.cms).length === 1 && !collection.drafts && !scope.from;

/** `"docId", "score"` of every match for this caller, or null when it may read none of the search fields. */
function matchQuery(
  ctx: OperationContext,
  collection: SanitizedCollection,
  input: string | Term[],
  scope: ReadScope,
  options: MatchOptions = {},
): SQLPart | null {
  const [table, fields, allowed, locale, draft] = indexArgs(ctx, collection, scope);
  if (allowed.length === 0) return null;
  const terms = typeof input === 'string' ? parseTerms(input) : input;
  return ctx.cms.store.dialect.search.match(table, fields, allowed, terms, locale, draft, {
    ...options,
    allLive: allLive(ctx, collection, scope),
  });
}

/** The query of the search's one term's count, where the engine can tell it (SearchSQL.termCount), else null. */
async function termCount(
  ctx: OperationContext,
  collection: SanitizedCollection,
  terms: Term[],
  scope: ReadScope,
): Promise<SQLPart | null> {
  const { store } = ctx.cms;
  const search = store.dialect.search;
  if (!search.termCount || (search.extras && !(await extrasPresent(store, collection)))) return null;
  const [index, fields, allowed, locale, draft] = indexArgs(ctx, collection, scope);
  const part = search.termCount(index, fields, allowed, terms, locale, draft, {
    allLive: allLive(ctx, collection, scope),
  });
  if (!part?.setup) return part;
  // A connection's own table, made again every time (a transaction rolled back may have taken it).
  if (store.inTransaction) return null;
  await store.all(part.setup);
  return part;
}

/** Whether a term of the search is rare, where the engine keeps term counts to tell (SearchSQL.rareMatches). */
async function rareMatches(
  ctx: OperationContext,
  collection: SanitizedCollection,
  terms: Term[],
  scope: ReadScope,
): Promise<boolean | undefined> {
  const { store } = ctx.cms;
  const [table, , , locale] = indexArgs(ctx, collection, scope);
  const query = store.dialect.search.rareMatches?.(table, terms, locale, RANKED_MATCHES);
  if (!query || !(await extrasPresent(store, collection))) return undefined;
  return Boolean((await store.get<{ rare: boolean }>(query.sql, query.params))?.rare);
}

/** The search as a condition on the collection's `"id"`, for lists sorted by something else than rank. */
export async function matchFilter(
  ctx: OperationContext,
  collection: SanitizedCollection,
  input: string | Term[],
  scope: ReadScope,
): Promise<SQLPart> {
  if (collection.search) await indexPending(ctx.cms, collection, searchTable(collection));
  const query = matchQuery(ctx, collection, input, scope);
  return query
    ? { sql: `"id" IN (SELECT "m"."docId" FROM (${query.sql}) AS "m")`, params: query.params }
    : { sql: '1 = 0', params: [] };
}

/**
 * One page of the matches the read lets through, and how many there are in all. The order: the newest
 * RANKED_MATCHES matches best first, then every older match newest first (`limit` null: all of them). Without
 * a read filter or `where` every match is readable, so the collection's table is not touched at all; with
 * one, the matches are narrowed to the ids it lets through before ranking. `dependsOn`: the tables the read
 * filter may reach (the collection's own first), so that the total is kept while they do not change
 * (src/db/kept-counts.ts); without a filter the matches depend on the collection's table alone.
 */
export async function rankedPage(
  ctx: OperationContext,
  collection: SanitizedCollection,
  input: string | Term[],
  scope: ReadScope,
  limit: number | null,
  offset: number,
  dependsOn: readonly string[] | null = null,
): Promise<{ ranked: Ranked; total: number }> {
  const { store } = ctx.cms;
  const source = scope.from ? `${scope.from.sql} AS ${quote(collection.table)}` : quote(collection.table);
  const ids: SQLPart | null = scope.where
    ? {
        sql: `SELECT "id" FROM ${source} WHERE ${scope.where.sql}`,
        params: [...(scope.from?.params ?? []), ...scope.where.params],
      }
    : null;
  // Rows of new documents still waiting for the index go into it first.
  if (collection.search) await indexPending(ctx.cms, collection, searchTable(collection));
  // The terms are parsed (and a prefix spelled out) once for the three queries below.
  const terms = await spellPrefixes(ctx, collection, typeof input === 'string' ? parseTerms(input) : input);
  const match = (newest: MatchOptions['newest'] = null, after: number | null = null) =>
    matchQuery(ctx, collection, terms, scope, { ids, newest, after });
  const all = match();
  if (!all) return { ranked: [], total: 0 };
  const rows = (query: SQLPart, order: string) =>
    store.all<{ docId: number; score: number }>(
      `SELECT "m"."docId", "m"."score" FROM (${query.sql}) AS "m" ORDER BY ${order}`,
      query.params,
    );
  const end = limit === null ? null : offset + limit;
  const page: { docId: number; score: number }[] = [];
  // The ranked part of the order, when the page reaches into it.
  let ranked = 0;
  if (offset < RANKED_MATCHES) {
    // `match` answers whenever `all` did: the same fields are readable.
    const newest = { limit: RANKED_MATCHES, offset: 0 };
    const rare = await rareMatches(ctx, collection, terms, scope);
    const best = await scoreNewest(
      ctx,
      collection,
      terms,
      scope,
      (texts) => matchQuery(ctx, collection, terms, scope, { ids, newest, texts, rare })!,
    );
    ranked = best.length;
    page.push(...best.slice(offset, end ?? undefined));
  }
  // Past the ranked part: older matches, newest first, only when the ranked part was full.
  if (ranked === RANKED_MATCHES || offset >= RANKED_MATCHES) {
    const from = Math.max(offset, RANKED_MATCHES);
    const want = end === null ? null : end - from;
    if (want === null || want > 0)
      page.push(...(await rows(match({ limit: want, offset: from })!, '"m"."docId" DESC')));
  }
  const result = page.map((r) => ({ docId: Number(r.docId), score: Number(r.score) }));
  // A short page (not past the end) already tells the total; otherwise one count, which scores nothing.
  const known = limit === null || (result.length < limit && (result.length > 0 || offset === 0));
  if (known) return { ranked: result, total: offset + result.length };
  const sql = `SELECT CAST(count(*) AS INTEGER) AS "n" FROM (${all.sql}) AS "m"`;
  const count = async () => Number((await store.get<{ n: number }>(sql, all.params))!.n);
  // Without a read filter the matches follow from the index alone: the total survives writes that add documents.
  if (!scope.from && !scope.where) {
    const table = searchTable(collection);
    const counted = async (query: SQLPart) => {
      const row = await store.get<{ n: number | null; newest: number | null }>(
        `SELECT (${query.sql}) AS "n", ${store.dialect.search.newestDoc(table)} AS "newest"`,
        query.params,
      );
      return { value: row!.n, newest: row!.newest == null ? null : Number(row!.newest) };
    };
    const since = async (after: number | null) => {
      // Where the engine tells a term's count more cheaply, the one term's count; the matches are counted
      // only when it cannot tell. Two statements, not one: a statement holding the count's plan as well would
      // be compiled (PostgreSQL's JIT) for the count's estimated cost, even where it never runs.
      const kept = after === null ? await termCount(ctx, collection, terms, scope) : null;
      const fromCounts = kept ? await counted(kept) : null;
      if (fromCounts && fromCounts.value !== null) return { ...fromCounts, value: Number(fromCounts.value) };
      const part = match(null, after)!;
      const row = await counted({
        sql: `SELECT CAST(count(*) AS INTEGER) FROM (${part.sql}) AS "m"`,
        params: part.params,
      });
      return { ...row, value: Number(row.value) };
    };
    const total = await keptSinceAppends(
      store,
      collection.table,
      table,
      sql,
      all.params,
      () => since(null),
      async (kept, after) => {
        const added = await since(after);
        return { value: kept + added.value, newest: added.newest ?? after };
      },
    );
    return { ranked: result, total };
  }
  const tables = scope.from ? null : (dependsOn ?? (scope.where ? null : [collection.table]));
  return { ranked: result, total: tables ? await keptCount(store, tables, sql, all.params, count) : await count() };
}
