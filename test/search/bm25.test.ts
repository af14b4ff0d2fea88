// Runs once (on the SQLite pass): compares the application's scores with FTS5's own in an in-memory database.
/**
 * The application's BM25 (src/search/bm25.ts), which ranks the newest matches of a common word, scores as
 * FTS5's bm25 does when given the same figures: the rows, how many hold each term, and every row's length.
 */
import { expect, test } from 'bun:test';
import { Database } from 'bun:sqlite';
import { bm25Scores } from '../../src/search/bm25.ts';
import { parseTerms } from '../../src/search/terms.ts';
import { fold } from '../../src/db/search-sql.ts';

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

/**
 * The scorer splits a text into words without folding all of it; the words must be those of the whole
 * text folded and then split on letters and digits, whatever the characters: marks, ligatures, full-width
 * and compatibility forms, letters that fold to two, and a capital sigma, whose case depends on its neighbours.
 */
test('texts of every kind of letter score as their whole folding says', () => {
  const pieces = [
    ...['cedar', 'Cedar', 'CEDARS', 'café', 'CAFÉ', 'cafe\u0301', 'naïve', 'Straße', 'STRASSE', 'über', 'ÜBER'],
    ...['ﬁle', 'ＦＵＬＬ', '™', '½', '℅', '²', 'ª', 'ſ', 'Ĳ', 'ǄA', 'ǅ', 'ŉ', 'ß', 'æ', 'ø', 'ł', 'µ', 'İstanbul'],
    ...['ΟΔΟΣ', "ΑΣ'Α", 'ΑΣ.', 'οδος', 'Σ', '東京', '\u0301', "l'été", 'K', 'Ω', 'ᾈ', '·', '×', '42', 'a', 'the'],
    ...[' ', ', ', '.', '-', '"', '\n'],
  ];
  let seed = 7;
  const pick = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return (seed >>> 8) % n;
  };
  const text = () =>
    Array.from({ length: 1 + pick(30) }, () => pieces[pick(pieces.length)] + (pick(3) ? ' ' : '')).join('');
  const searches = ['cedar', 'cafe', 'cedar pine', '"the cedar"', 'file', 'full', 'tm', 'strasse', 'ss', 'dz'];
  searches.push('ij', 's', 'mu', '2', 'ασ', 'ας', 'οδος', '東京', 'ete', 'k', 'ω', 'istanbul', 'a', 'ae');
  let compared = 0;
  for (let round = 0; round < 30; round++) {
    const rows = Array.from({ length: 20 }, () => ({ texts: [text(), pick(4) ? text() : null, text()] }));
    for (const search of searches)
      for (const prefix of [false, true]) {
        const terms = parseTerms(search).map((t) => ({ ...t, prefix: prefix && t.prefix }));
        const stats = { rows: 100, hits: terms.map(() => 10 + pick(80)) };
        const plain = plainScores(rows, terms, [0, 2], stats);
        bm25Scores(rows, terms, [0, 2], stats).forEach((score, i) => {
          expect(score).toBeCloseTo(plain[i], 9);
          compared++;
        });
      }
  }
  expect(compared).toBe(30 * 20 * 48);
});

/** BM25 read plainly: each text folded whole and split on letters and digits. */
function plainScores(
  rows: { texts: (string | null)[] }[],
  terms: ReturnType<typeof parseTerms>,
  searched: number[],
  stats: { rows: number; hits: number[] },
): number[] {
  const counted = rows.map((row) => {
    const frequencies = terms.map(() => 0);
    let length = 0;
    row.texts.forEach((text, column) => {
      const words = text ? (fold(text).match(/[\p{L}\p{N}]+/gu) ?? []) : [];
      length += words.length;
      if (!searched.includes(column)) return;
      terms.forEach((term, t) => {
        for (let i = 0; i + term.words.length <= words.length; i++) {
          const at = term.words.every((w, k) =>
            k === term.words.length - 1 && term.prefix ? words[i + k].startsWith(w) : words[i + k] === w,
          );
          if (at) frequencies[t]++;
        }
      });
    });
    return { frequencies, length };
  });
  const average = counted.reduce((a, c) => a + c.length, 0) / counted.length || 1;
  const idf = stats.hits.map((hits) => Math.max(1e-6, Math.log((stats.rows - hits + 0.5) / (hits + 0.5))));
  return counted.map(({ frequencies, length }) =>
    frequencies.reduce(
      (score, f, t) => score + (idf[t] * (f * 2.2)) / (f + 1.2 * (0.25 + (0.75 * length) / average)),
      0,
    ),
  );
}
