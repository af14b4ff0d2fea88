/**
 * GET reads (list, read by id, count, globals) through the response cache, with ETags and 304s
 * (docs/caching.md). An answer is kept under everything that shapes it: the path and query (where,
 * sort, page, locale, depth, draft, select, populate, …) and who asks (anonymous, or the user as loaded
 * for this request — any change to the user is a new key — and an API key's scopes). It is served again
 * only while the change counters of every table it depends on (src/db/change-triggers.ts) are the ones
 * read before it was computed; the counters are current for every commit acknowledged before the
 * request, in this process or any other. An answer whose rules or hooks looked at the request is not kept.
 */
import type { CMS } from '../cms.ts';
import type { Entity } from '../config/types.ts';
import type { RouteInput } from '../http/handle.ts';
import { createResponseCache, type CachedAnswer, type ResponseCache } from './response-cache.ts';
import { dependenciesOf } from './dependencies.ts';
import type { CacheFigures } from '../metrics/prometheus-text.ts';

const caches = new WeakMap<CMS, ResponseCache>();

/** The instance's response cache; null when the config turns it off. */
export function responseCacheOf(cms: CMS): ResponseCache | null {
  if (!cms.config.cache) return null;
  let cache = caches.get(cms);
  if (!cache) caches.set(cms, (cache = createResponseCache(cms.config.cache.maxSize)));
  return cache;
}

/** For `/metrics`. */
export function cacheFigures(cms: CMS): CacheFigures {
  const cache = responseCacheOf(cms);
  return cache && { entries: cache.entries, maxBytes: cms.config.cache!.maxSize, ...cache.stats };
}

/**
 * Answers the read `compute` would give, from the cache when it proves nothing changed. `entity` is the
 * collection or global read (undefined when the slug is unknown: `compute` then throws its 404).
 */
export async function cachedRead(input: RouteInput, entity: Entity | undefined, compute: () => Promise<unknown>): Promise<Response> {
  const { cms, ctx, request } = input;
  const control = input.credentials.user ? 'private, no-cache' : entity?.cache.control ?? 'no-cache';
  const cache = entity && entity.cache.enabled && keepable(input) ? responseCacheOf(cms) : null;
  let key = '';
  let counters: number[] = [];
  if (cache) {
    key = keyOf(input);
    const current = await cms.store.changeCounters();
    counters = dependenciesOf(cms.config, entity!).map((table) => current.get(table) ?? 0);
    const kept = cache.get(key);
    if (kept && sameCounters(kept.counters, counters)) {
      cache.stats.hits++;
      return answer(request, kept, control);
    }
    cache.stats.misses++;
  }
  ctx.readsRequest = false;
  const body = new TextEncoder().encode(JSON.stringify(await compute()));
  const fresh: CachedAnswer = { body, etag: etagOf(body), counters };
  if (cache && !ctx.readsRequest) cache.set(key, fresh);
  return answer(request, fresh, control);
}

/**
 * Reads whose answer the key cannot describe are computed every time: a method-override read (its query
 * and unsaved values are in the body) and a preview-token read (the token expires).
 */
function keepable(input: RouteInput): boolean {
  return input.request.method !== 'POST' && input.unsaved === undefined && input.query.preview === undefined;
}

function keyOf({ request, credentials }: RouteInput): string {
  const url = request.url;
  const path = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  const user = credentials.user;
  if (!user) return path;
  // Rules see the whole user: any change to it (role, fields) makes a new key.
  const fingerprint = Bun.hash(JSON.stringify(user)).toString(36);
  return `${user.id}:${fingerprint}:${credentials.scopes?.join(',') ?? ''}\n${path}`;
}

const sameCounters = (a: number[], b: number[]) => a.length === b.length && a.every((n, i) => n === b[i]);

/** A strong validator: the same bytes have the same tag, whoever asked and whenever. */
const etagOf = (body: Uint8Array<ArrayBuffer>) => `"${body.byteLength.toString(36)}-${Bun.hash(body).toString(36)}"`;

/** RFC 9110 §13.1.2: `*`, or any listed tag equal under weak comparison. */
function matches(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return (t.startsWith('W/') ? t.slice(2) : t) === etag;
  });
}

function answer(request: Request, kept: CachedAnswer, control: string): Response {
  if (matches(request.headers.get('if-none-match'), kept.etag)) {
    return new Response(null, { status: 304, headers: { etag: kept.etag, 'cache-control': control } });
  }
  return new Response(kept.body, { headers: { 'content-type': 'application/json; charset=utf-8', etag: kept.etag, 'cache-control': control } });
}
