/**
 * A short passage of a document's text around its first matched word, HTML-escaped, each matched word
 * wrapped in `<mark>`. Words compare folded (case and diacritics ignored), a prefix term by its start.
 */
import { fold } from '../db/search-sql.ts';
import type { Term } from './terms.ts';

const WINDOW = 160;
const escapeHTML = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function snippetOf(texts: string[], terms: Term[]): string {
  const words = terms.flatMap((t) =>
    t.words.map((w, i) => ({ word: w, prefix: t.prefix && i === t.words.length - 1 })),
  );
  const hit = (word: string) => {
    const folded = fold(word);
    return words.some((w) => (w.prefix ? folded.startsWith(w.word) : folded === w.word));
  };
  const text = texts.find((t) => (t.match(/[\p{L}\p{N}]+/gu) ?? []).some(hit)) ?? texts.find((t) => t.trim()) ?? '';
  const tokens = [...text.matchAll(/[\p{L}\p{N}]+/gu)];
  const first = tokens.find((m) => hit(m[0]))?.index ?? 0;
  const start = Math.max(0, first - WINDOW / 4);
  const end = Math.min(text.length, start + WINDOW);
  let out = '';
  let at = start;
  for (const m of tokens) {
    if (m.index! < start || m.index! + m[0].length > end) continue;
    out += escapeHTML(text.slice(at, m.index)) + (hit(m[0]) ? `<mark>${escapeHTML(m[0])}</mark>` : escapeHTML(m[0]));
    at = m.index! + m[0].length;
  }
  out += escapeHTML(text.slice(at, end));
  return `${start > 0 ? '…' : ''}${out.trim()}${end < text.length ? '…' : ''}`;
}
