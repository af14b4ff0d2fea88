/**
 * A Payload 3 REST API (or any server speaking it, this one included) as an import source: signed in with
 * `--email/--password` (Payload's login answers a token) or an API key, checked before anything is written.
 * Only GET requests follow the sign-in; nothing at the source changes.
 */
import { ConfigError } from '../errors.ts';

export type PayloadSource = { base: string; headers: Record<string, string> };
export type Credentials = { key?: string; email?: string; password?: string; collection?: string };

const TIMEOUT_MS = 60_000;

function refuse(base: string, problem: string): never {
  throw new ConfigError(`import refused, nothing was written: ${base} ${problem}`);
}

async function request(source: PayloadSource, path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(`${source.base}${path}`, {
      ...init,
      headers: { accept: 'application/json', ...source.headers, ...(init.headers as Record<string, string>) },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    return refuse(source.base, `cannot be reached (${(error as Error).message})`);
  }
}

export async function connectPayload(url: string, credentials: Credentials): Promise<PayloadSource> {
  const base = url.replace(/\/+$/, '');
  if (!/^https?:\/\//i.test(base)) refuse(base, 'is not an http(s) URL of a Payload REST API (…/api)');
  const source: PayloadSource = { base, headers: {} };
  const users = credentials.collection ?? 'users';
  if (credentials.email !== undefined || credentials.password !== undefined) {
    const res = await request(source, `/${users}/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: credentials.email, password: credentials.password }),
    });
    const body = (await res.json().catch(() => null)) as { token?: string } | null;
    if (!res.ok || !body?.token) refuse(base, `refused the sign-in of ${credentials.email} (${res.status})`);
    source.headers.authorization = `JWT ${body!.token}`;
  } else if (credentials.key) {
    source.headers.authorization = `${users} API-Key ${credentials.key}`;
    const res = await request(source, `/${users}/me`);
    const body = (await res.json().catch(() => null)) as { user?: unknown } | null;
    if (!res.ok || !body?.user) refuse(base, `did not accept the API key (${res.status})`);
  }
  return source;
}

/** A JSON answer, or null when the source has no such thing (404). */
export async function getJSON<T>(source: PayloadSource, path: string): Promise<T | null> {
  const res = await request(source, path);
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`GET ${source.base}${path}: ${res.status}`);
  return (await res.json()) as T;
}

/** Every document of a collection, page by page, every locale; null when the source has no such collection. */
export async function allDocuments(
  source: PayloadSource,
  slug: string,
  draft: boolean,
): Promise<Record<string, unknown>[] | null> {
  const docs: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const answer = await getJSON<{ docs: Record<string, unknown>[]; hasNextPage?: boolean }>(
      source,
      `/${slug}?locale=all&depth=0&limit=100&page=${page}&draft=${draft}&sort=id`,
    );
    if (!answer) return page === 1 ? null : docs;
    docs.push(...answer.docs);
    if (!answer.hasNextPage) return docs;
  }
}

/** An uploaded file's bytes, from its `url` (relative to the source's origin when it has no host). */
export async function fetchFile(source: PayloadSource, url: string): Promise<Uint8Array | null> {
  const target = new URL(url, source.base);
  // The session goes only to the source itself, never to a storage host elsewhere.
  const headers = target.origin === new URL(source.base).origin ? source.headers : {};
  const res = await fetch(target, { headers, signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => null);
  return res?.ok ? new Uint8Array(await res.arrayBuffer()) : null;
}
