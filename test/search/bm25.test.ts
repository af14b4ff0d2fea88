// Runs once (on the SQLite pass): compares the application's scores with FTS5's own in an in-memory database.
/**
 * The application's BM25 (src/search/bm25.ts), which ranks the newest matches of a common word, scores as
 * FTS5's bm25 does when given the same figures: the rows, how many hold each term, and every row's length.
 */
import { expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { bm25Scores } from '../../src/search/bm25.ts';
import { parseTerms } from '../../src/search/terms.ts';

const TEXTS: [string, string][] = [
  ['Cedar grove', 'the cedar and the pine, cedar again'],
  ['Pine', 'a pine forest with no other tree'],
  ['Café notes', 'Café au lait near the cedar-lined street'],
  ['Old cedars', 'cedars and more cedars of Lebanon'],
  ['Street', 'a long street, a short street'],
  ['Mixed', 'pine cedar pine cedar pine'],
];

/** The texts in an FTS5 table as the index makes it (rowid i + 1 for TEXTS[i]). */
function corpus(): Database {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE f USING fts5(a, b, tokenize = 'unicode61 remove_diacritics 2')`);
  const insert = db.query('INSERT INTO f (rowid, a, b) VALUES (?, ?, ?)');
  TEXTS.forEach(([a, b], i) => insert.run(i + 1, a, b));
  return db;
}

function engineScores(query: string): Map<number, number> {
  const db = corpus();
  const rows = db.query('SELECT rowid AS id, -bm25(f) AS score FROM f WHERE f MATCH ?').all(query) as {
    id: number;
    score: number;
  }[];
  db.close();
  return new Map(rows.map((r) => [r.id, r.score]));
}

/** The terms of `search` as written, the last one a prefix only when `prefix`. */
function appScores(search: string, ftsTerms: string[], prefix = false): Map<number, number> {
  const terms = parseTerms(search).map((t) => ({ ...t, prefix: prefix && t.prefix }));
  const db = corpus();
  const hits = ftsTerms.map((t) => (db.query('SELECT count(*) AS n FROM f WHERE f MATCH ?').get(t) as { n: number }).n);
  db.close();
  // Every row, so that the average length is the table's, as FTS5 takes it.
  const scores = bm25Scores(
    TEXTS.map((texts) => ({ texts })),
    terms,
    [0, 1],
    { rows: TEXTS.length, hits },
  );
  return new Map(scores.map((score, i) => [i + 1, score] as [number, number]).filter(([, s]) => s > 0));
}

test.each([
  ['cedar', ['"cedar"']],
  ['pine cedar', ['"pine"', '"cedar"']],
  ['"the cedar"', ['"the cedar"']],
  ['street cafe', ['"street"', '"cafe"']],
])('%p scores as FTS5 does', (search, ftsTerms) => {
  const query = ftsTerms.join(' AND ');
  const engine = engineScores(query);
  const app = appScores(search, ftsTerms);
  // The rows matching every term (the only ones the application is given to rank) score the same.
  expect(engine.size).toBeGreaterThan(0);
  for (const [id, score] of engine) expect(app.get(id)).toBeCloseTo(score, 9);
});

test('a prefix counts every word it begins', () => {
  const app = appScores('ced', ['"ced"*'], true);
  const engine = engineScores('"ced"*');
  expect([...app.keys()].sort()).toEqual([...engine.keys()].sort());
  // FTS5 counts the prefix as one phrase too: the same scores.
  for (const [id, score] of engine) expect(app.get(id)).toBeCloseTo(score, 9);
});
