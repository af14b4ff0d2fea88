/**
 * Okapi BM25 over a handful of rows, computed here where the engine's own would first count every document
 * holding each term (FTS5's bm25 walks each term's whole entry list before it scores one row: tens of ms for a
 * word in most of a million documents). The formula is FTS5's (k1 1.2, b 0.75, an inverse document
 * frequency of at least 1e-6); what it needs beyond the rows comes from the newest part of the index
 * (docs/search.md, "Ranking the newest matches").
 */
import { fold } from '../db/search-sql.ts';
import type { Term } from './terms.ts';

const K1 = 1.2;
const B = 0.75;

/** Text without diacritics to remove: lower case is all folding does to it. */
const ASCII = /^[\x00-\x7f]*$/;
/** Letters and digits make words, as in src/search/terms.ts; ASCII is told apart without a regular expression. */
const WORD_CHAR = /[\p{L}\p{N}]/u;
const isWordChar = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  return WORD_CHAR.test(text[i]);
};

/** Where each word of a folded text starts and ends (`starts[k]`, `ends[k]`), and how many there are. */
function wordsAt(text: string, starts: number[], ends: number[]): number {
  let n = 0;
  let i = 0;
  while (i < text.length) {
    while (i < text.length && !isWordChar(text, i)) i++;
    if (i >= text.length) break;
    starts[n] = i;
    while (i < text.length && isWordChar(text, i)) i++;
    ends[n++] = i;
  }
  return n;
}

/** How often `term` occurs among the `n` words of `text`: a phrase as consecutive words, a prefix by its start. */
function occurrences(text: string, starts: number[], ends: number[], n: number, term: Term): number {
  const { words, prefix } = term;
  const last = words.length - 1;
  let found = 0;
  for (let i = 0; i + last < n; i++) {
    let hit = true;
    for (let k = 0; k <= last && hit; k++) {
      const word = words[k];
      const length = ends[i + k] - starts[i + k];
      hit =
        (length === word.length || (k === last && prefix && length > word.length)) &&
        text.startsWith(word, starts[i + k]);
    }
    if (hit) found++;
  }
  return found;
}

/**
 * `rows[i].texts`: the row's text per column; `searched`: the columns a match may come from. `stats`: rows
 * in the sample of the index and, per term, how many of them hold it (the inverse document frequency).
 * The average row length is the rows' own.
 */
export function bm25Scores(
  rows: { texts: (string | null)[] }[],
  terms: Term[],
  searched: number[],
  stats: { rows: number; hits: number[] },
): number[] {
  const starts: number[] = [];
  const ends: number[] = [];
  const frequencies = rows.map(() => new Array<number>(terms.length).fill(0));
  const lengths = rows.map((row, r) => {
    let length = 0;
    row.texts.forEach((raw, column) => {
      if (!raw) return;
      const text = ASCII.test(raw) ? raw.toLowerCase() : fold(raw);
      const n = wordsAt(text, starts, ends);
      length += n;
      if (searched.includes(column))
        terms.forEach((term, t) => {
          frequencies[r][t] += occurrences(text, starts, ends, n, term);
        });
    });
    return length;
  });
  const average = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length) || 1;
  const idf = stats.hits.map((hits) => {
    const value = Math.log((stats.rows - hits + 0.5) / (hits + 0.5));
    return value > 0 ? value : 1e-6;
  });
  return frequencies.map((row, r) => {
    const norm = K1 * (1 - B + (B * lengths[r]) / average);
    return row.reduce((score, frequency, t) => score + (idf[t] * (frequency * (K1 + 1))) / (frequency + norm), 0);
  });
}
