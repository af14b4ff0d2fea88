/**
 * What one `where` and one `sort` may ask for, checked while they are compiled so an oversized query is a
 * 400 before any SQL runs, and the shape test their parsing shares.
 */
export const MAX_DEPTH = 8;
export const MAX_CONDITIONS = 100;
// SQLite refuses expressions deeper than 1000 terms and LIKE patterns over 50,000 bytes: bound what one
// request can ask for well below that, so a long search is a 400 rather than an engine error.
export const MAX_WORDS = 20;
export const MAX_TERM_LENGTH = 1000;
export const MAX_LIST = 500;
export const MAX_VALUES = 1000;
export const MAX_SORT_FIELDS = 10;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
