/** Reads the query string of a request (bracket form as the qs library writes it, or JSON) into plain options. */
import type QS from 'qs';
import { badRequest } from '../errors.ts';
import { checkPaging, DEFAULT_LIMIT } from './page-info.ts';
import type { SanitizedConfig, Where } from '../config/types.ts';

export type ReadOptions = {
  where?: Where;
  sort?: string;
  limit: number;
  page: number;
  depth: number;
  draft: boolean;
  locale: string | null;
  fallbackLocale: string | null;
  preview?: string;
  /** As sent (`select[title]=true`); the operation parses and checks it (src/operations/steps/read-shape.ts). */
  select?: unknown;
  populate?: unknown;
  /** `richText=html|markdown|text`: rich text values as strings in that format (checked by the read). */
  richText?: unknown;
  /** As sent; parsed by the read (src/query/join-options.ts). */
  joins?: unknown;
  /** `pagination=false`: every matching document in one answer (docs/payload-compatibility.md). */
  pagination: boolean;
  raw: Record<string, unknown>;
};

export { DEFAULT_LIMIT, MAX_LIMIT } from './page-info.ts';
export const MAX_DEPTH = 3;

/**
 * qs is loaded by the first query string, not at start: its dependencies (side-channel, get-intrinsic,
 * object-inspect) touch many of the runtime's lazily built globals when they load, tens of milliseconds
 * that a server's first answers (a health check, `/users/init`, the admin page) never need.
 */
let qs: typeof QS | null = null;

/** `depth=0&draft=true`: names and values with nothing to decode or nest, at most 16 pairs. */
const PLAIN_PAIRS = /^[\w-]+=[\w.,:-]*(?:&[\w-]+=[\w.,:-]*){0,15}$/;

/**
 * What qs answers for plain pairs, without it (a read by id's query is one, and qs took a microsecond for
 * it): null when a name repeats (qs makes an array) or is one of Object.prototype's (qs drops it).
 */
function plainPairs(search: string): Record<string, unknown> | null {
  if (!PLAIN_PAIRS.test(search)) return null;
  const out: Record<string, unknown> = {};
  for (const pair of search.split('&')) {
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    if (name in out) return null;
    out[name] = pair.slice(eq + 1);
  }
  return out;
}

export function parseQuery(search: string): Record<string, unknown> {
  if (search === '' || search === '?') return {};
  const text = search.startsWith('?') ? search.slice(1) : search;
  const plain = plainPairs(text);
  if (plain) return plain;
  qs ??= require('qs') as typeof QS;
  return qs.parse(text, {
    depth: 12,
    arrayLimit: 200,
    parameterLimit: 2000,
    allowDots: false,
  });
}

function integer(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const text = String(value);
  if (!/^-?\d+$/.test(text)) throw badRequest(`"${name}" must be a whole number.`, name);
  return Number(text);
}

function parseWhere(value: unknown): Where | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error();
      return parsed as Where;
    } catch {
      throw badRequest('"where" must be an object, in bracket form or as JSON.', 'where');
    }
  }
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('"where" must be an object.', 'where');
  return value as Where;
}

export function readOptions(query: Record<string, unknown>, config: SanitizedConfig): ReadOptions {
  const pagination = !(query.pagination === 'false' || query.pagination === false || query.pagination === '0');
  // Without pagination `limit` and `page` are ignored, so they are not checked either.
  const limit = pagination ? integer(query.limit, 'limit', DEFAULT_LIMIT) : DEFAULT_LIMIT;
  const page = pagination ? integer(query.page, 'page', 1) : 1;
  checkPaging(limit, page);
  const depth = integer(query.depth, 'depth', 1);
  if (depth < 0) throw badRequest('"depth" must be 0 or more.', 'depth');
  const sort =
    query.sort === undefined ? undefined : Array.isArray(query.sort) ? query.sort.join(',') : String(query.sort);
  return {
    where: parseWhere(query.where),
    sort,
    limit,
    page,
    depth: Math.min(depth, MAX_DEPTH),
    draft: query.draft === 'true' || query.draft === '1',
    ...localeOptions(query, config),
    preview: typeof query.preview === 'string' ? query.preview : undefined,
    select: query.select,
    populate: query.populate,
    richText: query.richText,
    joins: query.joins,
    pagination,
    raw: query,
  };
}

/** `locale` (a code or `all`) and `fallback-locale` (`false`, `none` or a code). */
export function localeOptions(
  query: Record<string, unknown>,
  config: SanitizedConfig,
): { locale: string | null; fallbackLocale: string | null } {
  const l10n = config.localization;
  if (!l10n) return { locale: null, fallbackLocale: null };
  const requested = query.locale === undefined || query.locale === '' ? l10n.defaultLocale : String(query.locale);
  if (requested !== 'all' && !l10n.locales.includes(requested))
    throw badRequest(`Unknown locale "${requested}".`, 'locale');
  const fallbackRaw = query['fallback-locale'] ?? query.fallbackLocale;
  let fallbackLocale: string | null = l10n.fallback ? l10n.defaultLocale : null;
  if (fallbackRaw !== undefined) {
    const text = String(fallbackRaw);
    if (text === 'false' || text === 'none' || text === 'null') fallbackLocale = null;
    else if (l10n.locales.includes(text)) fallbackLocale = text;
    else throw badRequest(`Unknown fallback locale "${text}".`, 'fallback-locale');
  }
  return { locale: requested, fallbackLocale };
}
