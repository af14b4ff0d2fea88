/**
 * Search terms from what a user typed: words (letters and digits; every other character is a separator,
 * so query-syntax characters can never reach the engine) and `"quoted phrases"`. Every term must match; the
 * last word, when not inside a phrase, matches as a prefix. Case and diacritics are folded.
 */
import { badRequest } from '../errors.ts';

import { fold, type Term } from '../db/search-sql.ts';

export type { Term };

export const MAX_QUERY_LENGTH = 500;
export const MAX_TERMS = 32;

const wordsOf = (text: string) => fold(text).match(/[\p{L}\p{N}]+/gu) ?? [];

export function parseTerms(input: unknown, field = 'search'): Term[] {
  if (typeof input !== 'string') throw badRequest(`"${field}" must be text.`, field);
  if (input.length > MAX_QUERY_LENGTH)
    throw badRequest(`"${field}" is too long (at most ${MAX_QUERY_LENGTH} characters).`, field);
  const terms: Term[] = [];
  const parts = input.split('"');
  parts.forEach((part, i) => {
    // Odd parts were between quotes (an unclosed quote runs to the end).
    const words = wordsOf(part);
    if (i % 2 === 1) {
      if (words.length) terms.push({ words, prefix: false });
    } else for (const word of words) terms.push({ words: [word], prefix: false });
  });
  if (terms.length === 0) throw badRequest(`"${field}" needs at least one word.`, field);
  if (terms.length > MAX_TERMS) throw badRequest(`"${field}" has too many words (at most ${MAX_TERMS}).`, field);
  const last = parts.length % 2 === 1 ? terms[terms.length - 1] : null;
  if (last && last.words.length === 1 && !input.trimEnd().endsWith('"')) last.prefix = true;
  return terms;
}

/** Every word of the terms, for marking matches in a snippet. */
export const termWords = (terms: Term[]) => terms.flatMap((t) => t.words);
