/**
 * Callers write `?` (in order) or `?N` (numbered) placeholders for both engines (../store.ts); PostgreSQL
 * wants `$n`. A `?` inside a quoted string, a quoted identifier, a dollar-quoted body or a comment is text,
 * not a placeholder, so the rewrite walks the statement instead of replacing every `?`. (The jsonb `?`
 * operators are never written by callers; the dialect uses functions instead.)
 */

const cache = new Map<string, string>();
const CACHE_LIMIT = 2000;

/** The statement with `$n` placeholders; cached per text, as statements repeat on the hot path. */
export function numberPlaceholders(sql: string): string {
  let out = cache.get(sql);
  if (out === undefined) {
    out = rewrite(sql);
    // Statement texts come from code and the config, so they are few; the limit only guards a leak.
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(sql, out);
  }
  return out;
}

function rewrite(sql: string): string {
  let out = '';
  let ordered = 0;
  let numbered = false;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const skip = skipEnd(sql, i);
    if (skip > i) {
      out += sql.slice(i, skip);
      i = skip;
    } else if (c === '?') {
      const digits = /^\d+/.exec(sql.slice(i + 1))?.[0];
      if (digits) {
        numbered = true;
        out += `$${Number(digits)}`;
        i += 1 + digits.length;
      } else {
        out += `$${++ordered}`;
        i++;
      }
      if (numbered && ordered) throw new Error('A statement uses both `?` and `?N` placeholders; use one kind.');
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Where the quoted or commented span starting at `i` ends, or `i` when none starts there. */
function skipEnd(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"') return quotedEnd(sql, i, c);
  if (c === '-' && sql[i + 1] === '-') {
    const end = sql.indexOf('\n', i);
    return end === -1 ? sql.length : end;
  }
  if (c === '/' && sql[i + 1] === '*') {
    const end = sql.indexOf('*/', i + 2);
    return end === -1 ? sql.length : end + 2;
  }
  if (c === '$') {
    const tag = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i))?.[0];
    if (tag) {
      const end = sql.indexOf(tag, i + tag.length);
      return end === -1 ? sql.length : end + tag.length;
    }
  }
  return i;
}

/** `'it''s'` and `"a""b"`: a doubled quote stays inside. */
function quotedEnd(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) i += 2;
      else return i + 1;
    } else {
      i++;
    }
  }
  return sql.length;
}
