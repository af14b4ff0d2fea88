/**
 * SQLite's full-text index: an FTS5 table per searchable collection (`unicode61 remove_diacritics 2`:
 * case and diacritics folded), ranked by bm25. The rowid holds the document id, locale and draft flag
 * (`docId * 256 + locale * 2 + draft`), so a document's rows are removed by a rowid range.
 */
import type { SearchRow, SearchSQL, Term } from '../search-sql.ts';

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
const columns = (fields: number) => Array.from({ length: fields }, (_, i) => `"f${i}"`);

/** How the index splits and folds text into terms: case and diacritics folded. */
const TOKENIZER = "tokenize = 'unicode61 remove_diacritics 2'";

const phrase = (words: string[]) => `"${words.join(' ').replaceAll('"', '""')}"`;

/**
 * An FTS5 query: each term a quoted string (its characters are letters and digits only), the prefix one
 * starred, or the whole terms it stands for where they were listed.
 */
function ftsQuery(terms: Term[], allowed: number[], fields: number): string {
  const body = terms
    .map((t) =>
      t.prefix && t.spelled?.length
        ? `(${t.spelled.map((w) => phrase([w])).join(' OR ')})`
        : `${phrase(t.words)}${t.prefix ? '*' : ''}`,
    )
    .join(' AND ');
  return allowed.length === fields ? body : `{${allowed.map((i) => `f${i}`).join(' ')}} : (${body})`;
}

/** Removes a document's rows (all of its locales and states, or its draft's) from `table`: a rowid range. */
const removeRows = (table: string, docId: number, onlyDraft: boolean) => ({
  sql: `DELETE FROM ${q(table)} WHERE "rowid" >= ? AND "rowid" < ?${onlyDraft ? ' AND "draft" = 1' : ''}`,
  params: [docId * 256, (docId + 1) * 256],
});

const insertRow = (table: string, row: SearchRow, localeIndex: number) => ({
  sql: `INSERT INTO ${q(table)} ("rowid", "locale", "draft", ${columns(row.texts.length).join(', ')}) VALUES (?, ?, ?, ${row.texts.map(() => '?').join(', ')})`,
  params: [row.docId * 256 + localeIndex * 2 + row.draft, row.locale, row.draft, ...row.texts],
});

/**
 * The rows of new documents waiting for the index (`_pending_search_<slug>`: no FTS5 table or its own
 * tables can have that name): a rowid table of the index's columns, its rowid the index's.
 */
const pendingTable = (table: string) => `_pending${table}`;

export const sqliteSearchSQL: SearchSQL = {
  create: (table, fields) => [
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${q(table)} USING fts5("locale" UNINDEXED, "draft" UNINDEXED, ${columns(fields).join(', ')}, ${TOKENIZER})`,
  ],
  drop: (table) => `DROP TABLE IF EXISTS ${q(table)}`,
  // FTS5's own vocabulary, one row per term and place, seeked by term: the first row of a term is found
  // without merging the entries of every term after it. A connection's own (temp) table: it holds nothing,
  // and a table in the file would be copied and counted with the data.
  prefixTerms: (table) => ({
    setup: `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${q(`${table}_terms`)} USING fts5vocab(main, ${q(table)}, 'instance')`,
    next: `SELECT "term" FROM temp.${q(`${table}_terms`)} WHERE "term" >= ?1 AND "term" < ?2 LIMIT 1`,
    added: `SELECT ${q(table)}."rowid" / 256 AS "docId", * FROM ${q(table)} WHERE ${q(table)}."rowid" >= (?1 + 1) * 256 ORDER BY ${q(table)}."rowid" LIMIT ?2`,
    // A few texts tokenized as the index tokenizes them, in a table of the connection that holds only them.
    termsOf: {
      setup: [
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${q(`${table}_texts`)} USING fts5("text", ${TOKENIZER})`,
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${q(`${table}_texts_terms`)} USING fts5vocab(temp, ${q(`${table}_texts`)}, 'row')`,
      ],
      fill: `INSERT INTO temp.${q(`${table}_texts`)} ("text") SELECT "value" FROM json_each(?1)`,
      list: `SELECT "term" FROM temp.${q(`${table}_texts_terms`)} WHERE "term" >= ?1 AND "term" < ?2`,
      empty: `DELETE FROM temp.${q(`${table}_texts`)}`,
    },
  }),
  // The rows of the newest documents, and how many hold each term: the index walks only their entries.
  sample(table, fields, allowed, terms, docs) {
    const t = q(table);
    const from = `(SELECT ${t}."rowid" FROM ${t} ORDER BY ${t}."rowid" DESC LIMIT 1) - ${docs * 256}`;
    const hits = terms.map(
      (_, i) => `(SELECT count(*) FROM ${t} WHERE ${t} MATCH ? AND ${t}."rowid" > ${from}) AS "h${i}"`,
    );
    // The rows are counted in FTS5's table of row sizes (one small row per index row, its id the rowid): the
    // index table itself would read each row's text to count it.
    return {
      sql: `SELECT (SELECT count(*) FROM ${q(`${table}_docsize`)} WHERE "id" > ${from}) AS "rows", ${hits.join(', ')}`,
      params: terms.map((term) => ftsQuery([term], allowed, fields)),
    };
  },
  // FTS5's vocabulary counts, per term, the rows holding it, walking its entries without a cursor over the
  // matches (about two thirds of a count's time). Rows are documents where every row is a live one of the
  // one locale. An ASCII word is the one term the tokenizer makes of it; a prefix, the one term it was
  // spelled as (SearchSQL.prefixTerms).
  termCount(table, fields, allowed, terms, _locale, draft, options = {}) {
    const [term] = terms;
    if (terms.length !== 1 || term.words.length !== 1 || allowed.length !== fields || draft) return null;
    if (!options.allLive || options.ids || options.after != null || options.newest) return null;
    const word = term.prefix ? (term.spelled?.length === 1 ? term.spelled[0] : null) : term.words[0];
    if (word === null || (!term.prefix && !/^[a-z0-9]+$/.test(word))) return null;
    const rows = `temp.${q(`${table}_rows`)}`;
    return {
      setup: `CREATE VIRTUAL TABLE IF NOT EXISTS ${rows} USING fts5vocab(main, ${q(table)}, 'row')`,
      sql: `SELECT coalesce((SELECT "doc" FROM ${rows} WHERE "term" = ?), 0)`,
      params: [word],
    };
  },
  insert: insertRow,
  pending(table, fields) {
    const p = pendingTable(table);
    const all = `"rowid", "locale", "draft", ${columns(fields).join(', ')}`;
    return {
      create: `CREATE TABLE IF NOT EXISTS ${q(p)} ("rowid" INTEGER PRIMARY KEY, "locale" TEXT, "draft" INTEGER, ${columns(fields).join(', ')})`,
      drop: `DROP TABLE IF EXISTS ${q(p)}`,
      insert: (row, localeIndex) => insertRow(p, row, localeIndex),
      remove: (docId, onlyDraft) => removeRows(p, docId, onlyDraft),
      oldestDoc: `(SELECT "rowid" / 256 FROM ${q(p)} ORDER BY "rowid" LIMIT 1)`,
      move: [`INSERT INTO ${q(table)} (${all}) SELECT ${all} FROM ${q(p)} ORDER BY "rowid"`, `DELETE FROM ${q(p)}`],
    };
  },
  newestDoc: (table) => `(SELECT ${q(table)}."rowid" / 256 FROM ${q(table)} ORDER BY ${q(table)}."rowid" DESC LIMIT 1)`,
  remove: removeRows,
  match(table, fields, allowed, terms, locale, draft, options = {}) {
    const t = q(table);
    // Locale and draft flag are read from the rowid: the UNINDEXED columns would cost a content read per match.
    const live = locale.index * 2;
    // Where every row is such a row, testing each match for it costs a fifth of a count: none is made.
    const filter = options.allLive
      ? ''
      : draft
        ? ` AND (${t}."rowid" % 256 = ${live + 1} OR (${t}."rowid" % 256 = ${live} AND NOT EXISTS (SELECT 1 FROM ${t} AS "d" WHERE "d"."rowid" = ${t}."rowid" + 1)))`
        : ` AND ${t}."rowid" % 256 = ${live}`;
    const ids = options.ids ? ` AND ${t}."rowid" / 256 IN (${options.ids.sql})` : '';
    // A rowid bound FTS5 seeks to, rather than testing every match.
    const after = options.after == null ? '' : ` AND ${t}."rowid" >= ?`;
    // FTS5 hands out matches in rowid order and stops at the LIMIT: bm25 runs for those rows only.
    const newest = options.newest;
    const bound = newest ? ` ORDER BY ${t}."rowid" DESC LIMIT ? OFFSET ?` : '';
    // With the texts, the application ranks (src/search/bm25.ts): bm25 would count each term's documents first.
    const scored =
      newest && options.texts
        ? `0 AS "score", ${columns(fields)
            .map((c, i) => `${t}.${c} AS "t${i}"`)
            .join(', ')}`
        : `-bm25(${t}) AS "score"`;
    return {
      sql: `SELECT ${t}."rowid" / 256 AS "docId", ${scored} FROM ${t} WHERE ${t} MATCH ?${filter}${ids}${after}${bound}`,
      params: [
        ftsQuery(terms, allowed, fields),
        ...(options.ids?.params ?? []),
        ...(options.after == null ? [] : [(options.after + 1) * 256]),
        ...(newest ? [newest.limit ?? -1, newest.offset] : []),
      ],
    };
  },
};
