/** What a dialect answers for the full-text index of one collection (search-sql.ts in each engine folder; docs/search.md). */
import type { SQLPart } from './store.ts';

/**
 * One search term: a word, or the words of a quoted phrase; `prefix`: the word may continue. `spelled`: for a
 * prefix, the index terms it stands for, where they were listed (SearchSQL.prefixTerms), matched as whole
 * words instead.
 */
export type Term = { words: string[]; prefix: boolean; spelled?: string[] };

/** Lower case without diacritics: how the index and the terms compare where the engine does not fold. */
export const fold = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

export type SearchRow = { docId: number; locale: string; draft: number; texts: string[] };

export interface SearchSQL {
  /** DDL making the index table of `fields` text columns (dropped and made again when its shape changes). */
  create(table: string, fields: number): string[];
  drop(table: string): string;
  /** The statements writing one row (locale index `localeIndex` of the config's locales). */
  insert(table: string, row: SearchRow, localeIndex: number): SQLPart;
  /**
   * Where the index costs most per transaction rather than per row (FTS5 writes a new segment of its index
   * at every commit), the statements of a plain table of the same rows that new documents' rows are
   * written to first, in the write's own transaction, and moved into the index many at a time
   * (src/search/pending-rows.ts). Absent where rows go straight into the index.
   */
  pending?(table: string, fields: number): PendingSQL;
  /** An expression: the highest document id the index holds rows of (null when it holds none). */
  newestDoc(table: string): string;
  /** Removes a document's rows: all of them, or only its draft rows. */
  remove(table: string, docId: number, onlyDraft: boolean): SQLPart;
  /**
   * Where the engine matches a prefix by first merging the entries of every term it covers (FTS5, which
   * copies them all before the first match), the statements that list those terms instead: `setup`, run
   * before `next` on the same connection (a statement reading, never writing the database), and `next`, the
   * first index term at or after `?1` and before `?2`. `added`: the rows of documents with an id above `?1`,
   * `"docId"` then each stored column, at most `?2` of them, in id order. `termsOf`: the terms the engine
   * makes of some texts, on the same connection, writing nothing but its own temporary table: `setup`, then
   * `fill` (`?1`: the texts as a JSON array), `list` (the terms at or after `?1` and before `?2`), `empty`.
   * Absent where the engine walks a prefix as it goes.
   */
  prefixTerms?(table: string): PrefixTermsSQL;
  /**
   * Where the engine's own ranking first walks every match of each term (FTS5's bm25 counts each term's
   * documents before it scores one row), the application ranks the newest matches itself
   * (src/search/bm25.ts): `match` with `options.texts` then reads their text columns, and this query answers
   * one row `"rows"`, `"h0"`, `"h1"`, … : how many rows the newest `docs` documents have in the index and
   * how many of them hold each term (in the searched columns). Absent where the engine ranks cheaply.
   */
  sample?(table: string, fields: number, columns: number[], terms: Term[], docs: number): SQLPart;
  /**
   * Where the engine can tell how many rows hold a term more cheaply than by counting the matches (counts
   * kept per term beside the index, or the index's own vocabulary), a query of one row and one value: how
   * many documents `match` would answer with these arguments; null when it cannot tell (a prefix several
   * terms start with). Takes `match`'s arguments. Null (no query) for a search it never answers: several
   * terms or a phrase, some columns only, a draft read, matches narrowed by `options`. `setup`: a statement
   * to run before it on the same connection, outside a transaction.
   */
  termCount?(...args: Parameters<SearchSQL['match']>): (SQLPart & { setup?: string }) | null;
  /**
   * Where the engine keeps those counts, a query of one row `{ rare }`: whether one of the terms is held by
   * so few rows (a prefix: its first terms' counts summed) that the `matches` newest matches are best found
   * through the index rather than by a walk of the newest documents. Tells `match` (`options.rare`) what
   * the engine's planner cannot tell for a prefix, nor for a statement it plans once for every value.
   */
  rareMatches?(table: string, terms: Term[], locale: SearchLocale, matches: number): SQLPart;
  /**
   * Where a newer version keeps more beside an index than the one it was built under had (PostgreSQL's term
   * counts): `present`, a query answering one row `"present"`, true when the index has it; `add`, the
   * statements (one transaction) adding and filling it from the index's rows.
   */
  extras?(table: string, fields: number): { present: string; add: string[] };
  /**
   * A query of `"docId", "score"` (bigger is better) for every document matching every term in locale
   * `locale` (index `localeIndex` of the config's locales), searching only the text columns `columns` (those
   * the caller may read); no order, no limit, so callers filter, count and page it. `draft`: the pending
   * draft's text where a document has one, else the live text. `options.ids`: a query of document ids the
   * matches are narrowed to (the read filter). `options.newest`: only the matches of the highest document
   * ids, `limit` of them (null: all) after skipping `offset`, walked in id order by the index itself so
   * that only those are scored. `options.after`: only documents with a higher id. `options.allLive`: every
   * row of the index is a live row in this locale (one locale, no drafts), so none need be tested for it.
   * `options.texts` (with `newest`, where `sample` is offered): no score (0), and each text column `"t0"`,
   * `"t1"`, … instead.
   */
  match(
    table: string,
    fields: number,
    columns: number[],
    terms: Term[],
    locale: SearchLocale,
    draft: boolean,
    options?: MatchOptions,
  ): SQLPart;
}

/** The table of rows waiting to be moved into the index, and what is done with it. */
export type PendingSQL = {
  /** DDL making the table when missing. */
  create: string;
  drop: string;
  /** Writes one row (as SearchSQL.insert writes it into the index). */
  insert(row: SearchRow, localeIndex: number): SQLPart;
  /** Removes a document's rows: all of them, or only its draft rows. */
  remove(docId: number, onlyDraft: boolean): SQLPart;
  /** An expression: the lowest document id the table holds rows of (null when it holds none). */
  oldestDoc: string;
  /** Moves every row into the index, in document order, and empties the table. */
  move: string[];
};

/** SearchSQL.prefixTerms's statements. */
export type PrefixTermsSQL = {
  setup: string;
  next: string;
  added: string;
  termsOf: { setup: string[]; fill: string; list: string; empty: string };
};

export type MatchOptions = {
  ids?: SQLPart | null;
  newest?: { limit: number | null; offset: number } | null;
  /**
   * With `newest`, where known (SearchSQL.rareMatches): a term is rare, the matches are best found through the
   * index (true), or every term is common, by a walk of the newest documents (false).
   */
  rare?: boolean;
  after?: number | null;
  allLive?: boolean;
  texts?: boolean;
};

/** A locale as the index keeps it: its name, and its position in the config's locales ('' and 0 without localization). */
export type SearchLocale = { name: string; index: number };
