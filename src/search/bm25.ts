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

/** Letters and digits make words, as in src/search/terms.ts; ASCII is told apart without a regular expression. */
const WORD_CHAR = /[\p{L}\p{N}]/u;
const isASCIIWordChar = (c: number) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
const isWordChar = (text: string, i: number) => {
  const c = text.charCodeAt(i);
  return c < 128 ? isASCIIWordChar(c) : WORD_CHAR.test(text[i]);
};
/** ASCII characters other than letters and digits: 1. */
const SEPARATOR = Uint8Array.from({ length: 128 }, (_, c) => (isASCIIWordChar(c) ? 0 : 1));

/**
 * The words of the text split last, as folding (src/db/search-sql.ts) then splitting it would give them, but
 * without folding all of it. An ASCII character other than a letter or digit is a separator that folding
 * leaves as it is and that nothing folds across (decomposition and reordering stop at it, marks go one by
 * one). So the text is cut there into runs: a run of ASCII letters and digits is a word as written, compared
 * without case; a run holding other characters is folded alone and split again. The one change of case that
 * looks at the letters around it, a capital sigma's (final or not), makes a text holding one fold whole.
 */
const words = {
  /** Per word: the string it is in, where it starts and ends, and whether it is ASCII as written (any case). */
  in: [] as string[],
  starts: [] as number[],
  ends: [] as number[],
  asWritten: [] as boolean[],
  n: 0,
};

function push(text: string, start: number, end: number, asWritten: boolean): void {
  const k = words.n++;
  words.in[k] = text;
  words.starts[k] = start;
  words.ends[k] = end;
  words.asWritten[k] = asWritten;
}

/** Folds `text` and adds its words. */
function pushFolded(raw: string): void {
  const text = fold(raw);
  let i = 0;
  while (i < text.length) {
    while (i < text.length && !isWordChar(text, i)) i++;
    if (i >= text.length) break;
    const start = i;
    while (i < text.length && isWordChar(text, i)) i++;
    push(text, start, i, false);
  }
}

/**
 * Letters of Latin-1 and Latin Extended-A and B that fold, alone, to ASCII letters or digits (é to e, ǆ to
 * dz, ² to 2), made from `fold` itself at the first use; null for the others. Each is a starter whose case
 * changes alone, so a run of these and ASCII letters and digits folds letter by letter, into one word.
 */
const LATIN_FROM = 0x80;
const LATIN_TO = 0x250;
let latin: (string | null)[] | null = null;
const latinFolds = () =>
  (latin ??= Array.from({ length: LATIN_TO - LATIN_FROM }, (_, i) => {
    const folded = fold(String.fromCharCode(LATIN_FROM + i));
    return /^[a-z0-9]+$/.test(folded) ? folded : null;
  }));

/** Adds the words of the run `raw[start, end)`, which holds characters beyond ASCII. */
function pushRun(raw: string, start: number, end: number): void {
  const table = latinFolds();
  let folded = '';
  for (let i = start; i < end; i++) {
    const c = raw.charCodeAt(i);
    const letter = c < 128 ? null : c < LATIN_TO ? table[c - LATIN_FROM] : null;
    if (c < 128) folded += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : raw[i];
    else if (letter) folded += letter;
    else return pushFolded(raw.slice(start, end));
  }
  push(folded, 0, folded.length, false);
}

/** Splits `raw` into `words`; answers how many there are. */
function split(raw: string): number {
  words.n = 0;
  if (raw.includes('\u03a3')) {
    pushFolded(raw);
    return words.n;
  }
  const length = raw.length;
  let i = 0;
  while (i < length) {
    let c = raw.charCodeAt(i);
    if (c < 128 && SEPARATOR[c] === 1) {
      i++;
      continue;
    }
    const start = i;
    let asWritten = true;
    for (; i < length; i++) {
      c = raw.charCodeAt(i);
      if (c >= 128) asWritten = false;
      else if (SEPARATOR[c] === 1) break;
    }
    if (asWritten) push(raw, start, i, true);
    else pushRun(raw, start, i);
  }
  return words.n;
}

/** Whether word `k` is `word` (or, `prefix`, begins with it). */
function wordIs(k: number, word: string, prefix: boolean): boolean {
  const start = words.starts[k];
  const length = words.ends[k] - start;
  if (length !== word.length && !(prefix && length > word.length)) return false;
  const text = words.in[k];
  if (!words.asWritten[k]) return text.startsWith(word, start);
  for (let j = 0; j < word.length; j++) {
    const c = text.charCodeAt(start + j);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== word.charCodeAt(j)) return false;
  }
  return true;
}

/** How often `term` occurs among the `n` words split last: a phrase as consecutive words, a prefix by its start. */
function occurrences(n: number, term: Term): number {
  const last = term.words.length - 1;
  let found = 0;
  for (let i = 0; i + last < n; i++) {
    let hit = true;
    for (let k = 0; k <= last && hit; k++) hit = wordIs(i + k, term.words[k], k === last && term.prefix);
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
  const frequencies = rows.map(() => new Array<number>(terms.length).fill(0));
  const lengths = rows.map((row, r) => {
    let length = 0;
    row.texts.forEach((raw, column) => {
      if (!raw) return;
      const n = split(raw);
      length += n;
      if (searched.includes(column))
        terms.forEach((term, t) => {
          frequencies[r][t] += occurrences(n, term);
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
