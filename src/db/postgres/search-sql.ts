/**
 * PostgreSQL's full-text index: a table per searchable collection with a `tsvector` of its text under a
 * GIN index, ranked by ts_rank. The text is folded (lower case, diacritics removed) by the application
 * before it is stored and before terms are matched (src/search/terms.ts `fold`), so it needs no
 * `unaccent` extension and ranks the same whether or not contrib is installed. The `simple` configuration
 * keeps every word as written (no stemming, no stop words), as SQLite's tokenizer does.
 *
 * Beside each index a table of term counts (`<index>_terms`: per locale, draft flag and term, how many rows
 * hold the term), written by triggers of the index table in the same statement as its rows, so it is exact
 * in every transaction. A search of one word, or of a prefix only one term starts with, is counted from it
 * by one lookup instead of a walk of every match (docs/search.md, "Counting a word on PostgreSQL").
 */
import type { SearchSQL, Term } from '../search-sql.ts';
import { fold } from '../search-sql.ts';

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
const columns = (fields: number) => Array.from({ length: fields }, (_, i) => `"f${i}"`);
const vectorOf = (cols: string[]) =>
  `to_tsvector('simple', ${cols.map((c) => `coalesce(${c}, '')`).join(` || ' ' || `)})`;

/** A tsquery text: words are letters and digits only, so nothing in it is syntax of the user's. */
const tsQuery = (terms: Term[]) =>
  terms
    .map((t) => (t.words.length > 1 ? `(${t.words.join(' <-> ')})` : `${t.words[0]}${t.prefix ? ':*' : ''}`))
    .join(' & ');

const termsTable = (table: string) => q(`${table}_terms`);

/** A prefix's terms' counts are summed, the first this many (a prefix with more is not rare). */
const PREFIX_TERMS_LOOKED = 2_000;

/** Adds (`sign` 1) or takes away (-1) the terms of the rows of transition table `rows` in the counts. */
const countRows = (table: string, rows: string, sign: 1 | -1) =>
  `INSERT INTO ${termsTable(table)} ("locale", "draft", "term", "n") SELECT "r"."locale", "r"."draft", "u"."lexeme", ${sign} * count(*) FROM ${rows} AS "r", unnest("r"."tsv") AS "u" GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 ON CONFLICT ("locale", "draft", "term") DO UPDATE SET "n" = ${termsTable(table)}."n" + excluded."n";`;

/**
 * The term counts' table, and the triggers keeping it: one statement per write of the index (rows in
 * a transition table), terms in one order so that two writers lock their rows in the same order.
 */
function termCounts(table: string): string[] {
  const counts = termsTable(table);
  const fn = q(`${table}_count_terms`);
  const trigger = (name: string, event: string, referencing: string) =>
    `CREATE OR REPLACE TRIGGER ${q(`${table}_${name}`)} AFTER ${event} ON ${q(table)}${referencing} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`;
  return [
    `CREATE TABLE IF NOT EXISTS ${counts} ("locale" text NOT NULL, "draft" integer NOT NULL, "term" text COLLATE "C" NOT NULL, "n" integer NOT NULL, PRIMARY KEY ("locale", "draft", "term"))`,
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $cms$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM ${counts};
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    ${countRows(table, '"removed"', -1)}
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    ${countRows(table, '"added"', 1)}
  END IF;
  RETURN NULL;
END
$cms$`,
    trigger('terms_added', 'INSERT', ' REFERENCING NEW TABLE AS "added"'),
    trigger('terms_removed', 'DELETE', ' REFERENCING OLD TABLE AS "removed"'),
    trigger('terms_changed', 'UPDATE', ' REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added"'),
    trigger('terms_emptied', 'TRUNCATE', ''),
  ];
}

/**
 * The search's query, parsed once per statement: written in place, a plan made once for every value (a
 * reused statement's) parses it again for each row it tests or ranks, nearly half the time of counting two
 * common words at a million documents. As a subquery of its own it is computed before the scan, and the
 * GIN index still takes it.
 */
const QUERY = "(SELECT to_tsquery('simple', ?))";

export const postgresSearchSQL: SearchSQL = {
  create: (table, fields) => [
    `CREATE TABLE IF NOT EXISTS ${q(table)} ("docId" integer NOT NULL, "locale" text NOT NULL, "draft" integer NOT NULL, ${columns(
      fields,
    )
      .map((c) => `${c} text`)
      .join(', ')}, "tsv" tsvector NOT NULL, PRIMARY KEY ("docId", "locale", "draft"))`,
    `CREATE INDEX IF NOT EXISTS ${q(`${table}_tsv`)} ON ${q(table)} USING gin ("tsv")`,
    ...termCounts(table),
  ],
  drop: (table) => `DROP TABLE IF EXISTS ${q(table)}, ${termsTable(table)}`,
  // An index made before the counts were kept: they are made and filled once, writers held off meanwhile.
  extras: (table) => ({
    present: `SELECT to_regclass('${termsTable(table).replaceAll("'", "''")}') IS NOT NULL AS "present"`,
    add: [
      `LOCK TABLE ${q(table)} IN SHARE MODE`,
      ...termCounts(table),
      `INSERT INTO ${termsTable(table)} ("locale", "draft", "term", "n") SELECT "r"."locale", "r"."draft", "u"."lexeme", count(*) FROM ${q(table)} AS "r", unnest("r"."tsv") AS "u" GROUP BY 1, 2, 3`,
    ],
  }),
  // One word (or a prefix), every column, live rows, nothing narrowing: the count of its one term. The term is
  // the word as the engine's parser reads it; a word it reads as more than one term, or a prefix more than
  // one term starts with, answers null.
  termCount(table, fields, allowed, terms, locale, draft, options = {}) {
    const [term] = terms;
    if (terms.length !== 1 || term.words.length !== 1 || allowed.length !== fields || draft) return null;
    if (options.ids || options.after != null || options.newest) return null;
    const match = term.prefix
      ? `"c"."term" >= "k"."lexeme" AND "c"."term" < "k"."lexeme" || chr(1114111)`
      : `"c"."term" = "k"."lexeme"`;
    return {
      sql: `SELECT CASE WHEN "k"."one" THEN (SELECT CASE WHEN count(*) <= 1 THEN CAST(coalesce(sum("n"), 0) AS INTEGER) END FROM (SELECT "c"."n" FROM ${termsTable(table)} AS "c" WHERE "c"."locale" = ? AND "c"."draft" = 0 AND ${match} AND "c"."n" > 0 LIMIT 2) AS "m") END FROM (SELECT numnode(to_tsquery('simple', ?)) = 1 AND cardinality("a") = 1 AS "one", "a"[1] AS "lexeme" FROM tsvector_to_array(to_tsvector('simple', ?)) AS "a") AS "k"`,
      params: [locale.name, tsQuery(terms), term.words[0]],
    };
  },
  // Rare: a term held by fewer rows than the square root of the index's rows (the planner's own estimate of
  // them) times the matches asked for, where finding them through the index and walking the newest documents
  // cost alike. A word's rows: its count; a prefix's: its terms' counts summed (the first of them). A phrase
  // is as rare as its rarest word.
  rareMatches(table, terms, locale, matches) {
    const params: unknown[] = [];
    const rowsOf = (word: string, prefix: boolean) => {
      params.push(locale.name, word, ...(prefix ? [word] : []));
      const range = prefix ? `"term" >= ? AND "term" < ? || chr(1114111)` : `"term" = ?`;
      return `(SELECT coalesce(sum("n"), 0) FROM (SELECT "n" FROM ${termsTable(table)} WHERE "locale" = ? AND "draft" = 0 AND ${range} LIMIT ${PREFIX_TERMS_LOOKED}) AS "s")`;
    };
    const rows = terms.flatMap((term) => term.words.map((word) => rowsOf(word, term.prefix)));
    return {
      sql: `SELECT least(${rows.join(', ')}) < sqrt(greatest((SELECT "reltuples" FROM pg_class WHERE "oid" = to_regclass(?)), 1) * ?) AS "rare"`,
      params: [...params, q(table), matches],
    };
  },
  insert: (table, row) => {
    const marks = row.texts.map((_, i) => `?${i + 4}`);
    return {
      sql: `INSERT INTO ${q(table)} ("docId", "locale", "draft", ${columns(row.texts.length).join(', ')}, "tsv") VALUES (?1, ?2, ?3, ${marks.join(', ')}, ${vectorOf(marks.map((m) => `${m}::text`))})`,
      params: [row.docId, row.locale, row.draft, ...row.texts.map(fold)],
    };
  },
  newestDoc: (table) => `(SELECT max("docId") FROM ${q(table)})`,
  remove: (table, docId, onlyDraft) => ({
    sql: `DELETE FROM ${q(table)} WHERE "docId" = ?${onlyDraft ? ' AND "draft" = 1' : ''}`,
    params: [docId],
  }),
  match(table, fields, allowed, terms, locale, draft, options = {}) {
    const t = q(table);
    const vector = allowed.length === fields ? `${t}."tsv"` : vectorOf(allowed.map((i) => `${t}."f${i}"`));
    const draftFilter = draft
      ? `("draft" = 1 OR NOT EXISTS (SELECT 1 FROM ${t} AS "d" WHERE "d"."docId" = ${t}."docId" AND "d"."locale" = ${t}."locale" AND "d"."draft" = 1))`
      : `"draft" = 0`;
    const ids = options.ids ? ` AND "docId" IN (${options.ids.sql})` : '';
    const after = options.after == null ? '' : ` AND "docId" > ?`;
    /** `indexed` false: the same match, as a condition the GIN index does not take. */
    const matchesBy = (indexed: boolean) =>
      `FROM ${t} WHERE ${indexed ? '' : '('}${vector} @@ ${QUERY}${indexed ? '' : ') IS TRUE'} AND "locale" = ? AND ${draftFilter}${ids}${after}`;
    const params = [
      tsQuery(terms),
      locale.name,
      ...(options.ids?.params ?? []),
      ...(options.after == null ? [] : [options.after]),
    ];
    const { newest, rare } = options;
    // The GIN index finds the candidates (`@@`); ts_rank reads only theirs, and only where the caller orders by
    // it. Bounded to the newest: the rows are picked first, and only those are scored. Where the term counts
    // told whether the terms are rare (`rare`), the plan is not left to the planner, which guesses a prefix's
    // share blind (2% of the rows, whatever the prefix) and plans a reused statement once for every value
    // (left to it, a rare prefix walked past every row, 0.7 s at a million, and a common word could be sorted
    // from all its matches, 2.2 s): a rare term's matches are found through the GIN index and sorted (not
    // ordered by the id itself, which the index order would serve); common ones by a walk of the documents
    // newest first, which stops at the last needed (the match a condition the GIN index does not take).
    if (newest)
      return {
        sql: `SELECT ${t}."docId", ts_rank(${vector}, ${QUERY}) AS "score" FROM (SELECT * ${matchesBy(rare !== false)} ORDER BY "docId"${rare ? ' + 0' : ''} DESC LIMIT ? OFFSET ?) AS ${t}`,
        params: [tsQuery(terms), ...params, newest.limit, newest.offset],
      };
    return {
      sql: `SELECT "docId", ts_rank(${vector}, ${QUERY}) AS "score" ${matchesBy(true)}`,
      params: [tsQuery(terms), ...params],
    };
  },
};
