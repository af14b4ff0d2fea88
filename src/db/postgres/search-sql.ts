/**
 * PostgreSQL's full-text index: a table per searchable collection with a `tsvector` of its text under a
 * GIN index, ranked by ts_rank. The text is folded (lower case, diacritics removed) by the application
 * before it is stored and before terms are matched (src/search/terms.ts `fold`), so it needs no
 * `unaccent` extension and ranks the same whether or not contrib is installed. The `simple` configuration
 * keeps every word as written (no stemming, no stop words), as SQLite's tokenizer does.
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

export const postgresSearchSQL: SearchSQL = {
  create: (table, fields) => [
    `CREATE TABLE IF NOT EXISTS ${q(table)} ("docId" integer NOT NULL, "locale" text NOT NULL, "draft" integer NOT NULL, ${columns(
      fields,
    )
      .map((c) => `${c} text`)
      .join(', ')}, "tsv" tsvector NOT NULL, PRIMARY KEY ("docId", "locale", "draft"))`,
    `CREATE INDEX IF NOT EXISTS ${q(`${table}_tsv`)} ON ${q(table)} USING gin ("tsv")`,
  ],
  drop: (table) => `DROP TABLE IF EXISTS ${q(table)}`,
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
    const matches = `FROM ${t} WHERE ${vector} @@ to_tsquery('simple', ?) AND "locale" = ? AND ${draftFilter}${ids}${after}`;
    const params = [
      tsQuery(terms),
      locale.name,
      ...(options.ids?.params ?? []),
      ...(options.after == null ? [] : [options.after]),
    ];
    const newest = options.newest;
    // The GIN index finds the candidates (`@@`); ts_rank reads only theirs, and only where the caller orders by
    // it. Bounded to the newest: the rows are picked first, and only those are scored.
    if (newest)
      return {
        sql: `SELECT ${t}."docId", ts_rank(${vector}, to_tsquery('simple', ?)) AS "score" FROM (SELECT * ${matches} ORDER BY "docId" DESC LIMIT ? OFFSET ?) AS ${t}`,
        params: [tsQuery(terms), ...params, newest.limit, newest.offset],
      };
    return {
      sql: `SELECT "docId", ts_rank(${vector}, to_tsquery('simple', ?)) AS "score" ${matches}`,
      params: [tsQuery(terms), ...params],
    };
  },
};
