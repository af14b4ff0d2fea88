/**
 * GET reads (list, read by id, count, globals) through the response cache, with ETags and 304s
 * (docs/caching.md). An answer is kept under everything that shapes it: the path and query (where, sort,
 * page, locale, depth, draft, select, populate, …) and who asks (anonymous, or the user as loaded for
 * this request — any change to the user is a new key — through a session or an API key with its scopes).
 * It is served again only while the change counters of every table it depends on
 * (src/db/change-triggers.ts) are the ones read before it was computed; the counters are current for
 * every commit acknowledged before the request, in this process or any other. An answer whose rules or
 * hooks looked at the request is not kept.
 */
import type { CMS } from '../cms.ts';
import type { Entity } from '../config/types.ts';
import { withCors, type RouteInput } from './handle.ts';
import { credentialsOf, type Credentials } from './authenticate.ts';
import { pathAndQuery, rememberRoute, routeOf } from './observe-request.ts';
import { rememberedPerURL } from './recent-urls.ts';
import { bodySize, createResponseCache, type CachedAnswer, type ResponseCache } from '../cache/response-cache.ts';
import { dependenciesOf } from '../cache/dependencies.ts';
import { parseQuery } from '../query/request-options.ts';
import { notModified } from './conditional-get.ts';
import { packOnce, type PackedStore } from './compress-json.ts';
import { countersOf, requestReading, sameCounters } from '../cache/change-counters.ts';
import type { CacheFigures } from '../metrics/prometheus-text.ts';

const caches = new WeakMap<CMS, ResponseCache<KeptAnswer>>();

/** The instance's response cache; null when the config turns it off. */
function responseCacheOf(cms: CMS): ResponseCache<KeptAnswer> | null {
  if (!cms.config.cache) return null;
  let cache = caches.get(cms);
  if (!cache) caches.set(cms, (cache = createResponseCache<KeptAnswer>(cms.config.cache.maxSize)));
  return cache;
}

/** For `/metrics`. */
export function cacheFigures(cms: CMS): CacheFigures {
  const cache = responseCacheOf(cms);
  return cache && { entries: cache.entries, maxBytes: cms.config.cache!.maxSize, ...cache.stats };
}

/**
 * Before routing (src/http/app.ts, GET requests only): a GET whose answer is kept and provably current
 * is answered at once, as stored bytes; anything else (nothing kept, stale, a session that must set up
 * two-factor sign-in first) goes on to its route. Only answers of cacheable reads are ever kept, so a
 * kept key names one.
 */
export function answerFromCache(cms: CMS, request: Request): Promise<Response | undefined> | undefined {
  const cache = responseCacheOf(cms);
  // Answered at once, without a promise, when nothing is kept (the cache off, or nothing in it yet).
  if (!cache || cache.entries === 0) return undefined;
  return answerFromKept(cms, cache, request);
}

async function answerFromKept(
  cms: CMS,
  cache: ResponseCache<KeptAnswer>,
  request: Request,
): Promise<Response | undefined> {
  // A refused credential (an unknown API key) is the route wrapper's to answer, in the contract's shape.
  const credentials = await credentialsOf(cms, request).catch(() => null);
  if (!credentials || credentials.twoFactorSetupRequired) return undefined;
  return answerKept(cms, cache, request, credentials, keyOf(request, credentials));
}

/**
 * For reads whose key is more than their URL (a GraphQL query sent with POST: `what` names the query,
 * its variables and operation): the kept answer, if there is one and it is still current.
 */
export async function answerKeptRead(
  cms: CMS,
  request: Request,
  credentials: Credentials,
  what: string,
): Promise<Response | undefined> {
  const cache = responseCacheOf(cms);
  if (!cache || cache.entries === 0 || credentials.twoFactorSetupRequired) return undefined;
  return answerKept(cms, cache, request, credentials, callerKey(credentials, what));
}

/** The answer kept under `key` if it is still current, counted as a hit. */
async function currentKept(
  cms: CMS,
  cache: ResponseCache<KeptAnswer>,
  request: Request,
  key: string,
): Promise<KeptAnswer | undefined> {
  const kept = cache.get(key);
  if (!kept) return undefined;
  if (!sameCounters(kept.counters, await countersOf(requestReading(cms.store, request), kept.tables))) return undefined;
  cache.stats.hits++;
  rememberRoute(request, kept.route);
  return kept;
}

async function answerKept(
  cms: CMS,
  cache: ResponseCache<KeptAnswer>,
  request: Request,
  credentials: Credentials,
  key: string,
): Promise<Response | undefined> {
  const kept = await currentKept(cms, cache, request, key);
  if (!kept || !(kept.body instanceof Blob)) return undefined;
  const response = answerKeptBody(request, kept, kept.body, credentials.user ? PRIVATE : kept.control);
  // Only a client that says which encodings it takes may get it compressed (http/compress-json.ts).
  const packing = request.headers.has('accept-encoding');
  return withCors(cms, request, packing ? packOnce(response, packedStore(cache, key, kept)) : response);
}

/** A kept answer's compressed forms, kept with it (and counted in the cache's bytes) while it is the one kept. */
function packedStore(cache: ResponseCache<KeptAnswer>, key: string, kept: KeptAnswer): PackedStore {
  return {
    get: (encoding) => kept.packed?.[encoding],
    keep(encoding, bytes) {
      if (bytes.byteLength >= bodySize(kept.body) || cache.peek(key) !== kept) return;
      cache.set(key, { ...kept, packed: { ...kept.packed, [encoding]: bytes } });
    },
  };
}

/**
 * The other side of `answerKeptRead`: `compute` runs after the request's reading of the change counters
 * is taken, and answers the body and the tables it depends on, or null tables when it must not be kept
 * (a mutation, an error, an answer about the session, a rule that looked at the request).
 */
export async function keptRead(
  cms: CMS,
  request: Request,
  credentials: Credentials,
  what: string,
  compute: () => Promise<{ body: unknown; tables: string[] | null }>,
): Promise<Response> {
  const cache = responseCacheOf(cms);
  const reading = cache ? requestReading(cms.store, request) : null;
  if (reading) await reading;
  const { body, tables } = await compute();
  if (cache) cache.stats.misses++;
  const keep =
    cache && tables
      ? { cache, key: callerKey(credentials, what), counters: await countersOf(reading!, tables), tables }
      : null;
  return keepAndAnswer(request, credentials, body, 'no-cache', keep);
}

/**
 * For reads answered in an envelope of their own (an MCP call, whose answer names the call's id): the
 * bytes kept under `what` for this caller, if they are still current.
 */
export async function keptBytes(
  cms: CMS,
  request: Request,
  credentials: Credentials,
  what: string,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  const cache = responseCacheOf(cms);
  if (!cache || cache.entries === 0 || credentials.twoFactorSetupRequired) return undefined;
  const kept = await currentKept(cms, cache, request, callerKey(credentials, what));
  return kept?.body instanceof Uint8Array ? kept.body : undefined;
}

/**
 * The other side of `keptBytes`: `compute` runs after the request's reading of the change counters is
 * taken, and its text is kept unless it says not to (a failure), the entity keeps no answers, or a rule or
 * hook looked at the request. Answers the text either way.
 */
export async function keepBytes(
  input: Pick<RouteInput, 'cms' | 'ctx' | 'request' | 'credentials'>,
  entity: Entity | undefined,
  what: string,
  compute: () => Promise<{ text: string; keep: boolean }>,
): Promise<string> {
  const { cms, ctx, request, credentials } = input;
  const cache = entity?.cache.enabled && !credentials.twoFactorSetupRequired ? responseCacheOf(cms) : null;
  const tables = cache ? dependenciesOf(cms.config, entity!) : [];
  const counters = cache ? await countersOf(requestReading(cms.store, request), tables) : [];
  ctx.readsRequest = false;
  const { text, keep } = await compute();
  if (!cache) return text;
  cache.stats.misses++;
  if (keep && !ctx.readsRequest)
    cache.set(callerKey(credentials, what), {
      body: encoder.encode(text),
      // Never sent as a validator: these bytes are answered inside an envelope.
      etag: '',
      counters,
      tables,
      control: 'no-store',
      route: routeOf(request),
    });
  return text;
}

/**
 * The route's side (a read nothing was kept for, or whose answer went stale): computes it, keeps it
 * unless its rules or hooks looked at the request, and answers with its ETag (304 when it matches).
 * `entity` is the collection or global read (undefined when the slug is unknown: `compute` then throws
 * its 404).
 */
export async function cachedRead(
  input: RouteInput,
  entity: Entity | undefined,
  compute: () => Promise<unknown>,
): Promise<Response> {
  const { cms, ctx, request, credentials } = input;
  const previewing = previews(input);
  const control = previewing ? PREVIEW : (entity?.cache.control ?? 'no-cache');
  const cache = entity && entity.cache.enabled && !previewing && keepable(input) ? responseCacheOf(cms) : null;
  // Read before computing (the request's reading): a write that commits meanwhile leaves the kept answer
  // already stale.
  const tables = cache ? dependenciesOf(cms.config, entity!) : [];
  const counters = cache ? await countersOf(requestReading(cms.store, request), tables) : [];
  ctx.readsRequest = false;
  const body = await compute();
  const keep = cache && !ctx.readsRequest ? { cache, key: keyOf(request, credentials), counters, tables } : null;
  if (cache) cache.stats.misses++;
  return keepAndAnswer(request, credentials, body, control, keep);
}

type Keep = { cache: ResponseCache<KeptAnswer>; key: string; counters: number[]; tables: string[] };

const encoder = new TextEncoder();

function keepAndAnswer(
  request: Request,
  credentials: Credentials,
  body: unknown,
  control: string,
  keep: Keep | null,
): Response {
  const text = JSON.stringify(body);
  const shown = credentials.user && control !== PREVIEW ? PRIVATE : control;
  // An answer nobody keeps leaves as its text: Bun writes a string's bytes itself, and its tag is the
  // same as the bytes' (their length and hash), without making the bytes first.
  if (!keep) return answer(request, text, etagOf(text), shown);
  const bytes = new Blob([text], { type: JSON_TYPE });
  const fresh: KeptAnswer = {
    body: bytes,
    etag: etagOf(text),
    counters: keep.counters,
    tables: keep.tables,
    control,
    route: routeOf(request),
  };
  keep.cache.set(keep.key, fresh);
  return answerKeptBody(request, fresh, bytes, shown);
}

type KeptAnswer = CachedAnswer & {
  /** The tables `counters` belong to. */
  tables: string[];
  /** Cache-Control of anonymous answers (the entity's `cache.control`). */
  control: string;
  /** The route pattern, for the metrics of requests answered before routing. */
  route: string;
  /** The headers it is answered with, by Cache-Control, made once (a Response copies them). */
  headers?: Map<string, Headers>;
};

const PRIVATE = 'private, no-cache';
/** Previews (a release's, or a draft's through its token) are kept by no cache, here or on the way. */
const PREVIEW = 'private, no-store';

/** A read of what is not live: releases applied (`release=`), or a preview token's draft. */
const previews = ({ query }: RouteInput) => Object.hasOwn(query, 'release') || Object.hasOwn(query, 'preview');

/**
 * Reads whose answer the key cannot describe are computed every time: a method-override read (its query
 * and unsaved values are in the body), and previews (a token expires; releases change without a counter
 * the key reads). Decided on the query as parsed, the one the route reads, so no percent-encoding of a
 * name (`pr%65view`) slips past.
 */
function keepable({ request, unsaved }: RouteInput): boolean {
  return request.method === 'GET' && unsaved === undefined;
}

/** The path and the query as parsed: two spellings of the same read share one key, and only what the route reads counts. */
export const readKey = rememberedPerURL((url) => {
  const path = pathAndQuery(url);
  const q = path.indexOf('?');
  return q === -1 ? path : `${path.slice(0, q)}?${JSON.stringify(parseQuery(path.slice(q + 1)))}`;
});

function keyOf(request: Request, credentials: Credentials): string {
  return callerKey(credentials, readKey(request.url));
}

/** `what` is asked, by whom: anonymous, or the user as loaded for this request through a session or an API key. */
function callerKey(credentials: Credentials, what: string): string {
  const user = credentials.user;
  if (!user) return what;
  // Rules see the whole user: any change to it (role, fields) makes a new key. A session (`s`) and an API
  // key (`k` and its scopes, even none) are different callers.
  const fingerprint = Bun.hash(JSON.stringify(user)).toString(36);
  const scopes = credentials.scopes ? `k${credentials.scopes.join(',')}` : 's';
  return `${user.id}:${fingerprint}:${scopes}\n${what}`;
}

/**
 * A strong validator: the same bytes have the same tag, whoever asked and whenever. A text's tag is its
 * UTF-8 bytes' (`Bun.hash` hashes a string's UTF-8 bytes), without making them.
 */
const etagOf = (body: Uint8Array<ArrayBuffer> | string) =>
  `"${(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength).toString(36)}-${Bun.hash(body).toString(36)}"`;

const JSON_TYPE = 'application/json; charset=utf-8';

/** Most requests hold no tag: the check and its arguments are made only for one that does. */
const unchanged = (request: Request, etag: string, control: string) =>
  request.headers.has('if-none-match') ? notModified(request, [etag], { etag, 'cache-control': control }) : null;

function answer(request: Request, body: string, etag: string, control: string): Response {
  return (
    unchanged(request, etag, control) ??
    new Response(body, { headers: { 'content-type': JSON_TYPE, etag, 'cache-control': control } })
  );
}

/** A kept answer: its Blob carries the content type; its other headers are made once per Cache-Control. */
function answerKeptBody(request: Request, kept: KeptAnswer, body: Blob, control: string): Response {
  const made = unchanged(request, kept.etag, control);
  if (made) return made;
  kept.headers ??= new Map();
  let headers = kept.headers.get(control);
  if (!headers) kept.headers.set(control, (headers = new Headers({ etag: kept.etag, 'cache-control': control })));
  return new Response(body, { headers });
}
