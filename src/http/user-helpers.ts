/**
 * Server-side helpers (docs/accounts.md): the logged-in user of a request, or null.
 * `getCMSUser(request | headers)` for anything with a Fetch `Request`; `useCMSUser(event)` for h3/Nuxt events.
 */
import type { User } from '../config/types.ts';
import type { CMS } from '../cms.ts';
import { defaultCMS } from '../default-cms.ts';
import { authenticate } from './authenticate.ts';

function toRequest(input: Request | Headers | Record<string, string | string[] | undefined>): Request {
  if (input instanceof Request) return input;
  const headers = new Headers();
  if (input instanceof Headers) input.forEach((v, k) => headers.set(k, v));
  else
    for (const [k, v] of Object.entries(input))
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  return new Request('http://localhost/', { headers });
}

export async function getCMSUser(
  input: Request | Headers | Record<string, string | string[] | undefined>,
  cms: CMS | { cms: CMS } | null = defaultCMS(),
): Promise<User | null> {
  const instance = cms && 'cms' in cms ? cms.cms : cms;
  if (!instance) throw new Error('getCMSUser: no CMS instance (call getCMS() first or pass one)');
  try {
    return (await authenticate(instance, toRequest(input))).user;
  } catch {
    return null;
  }
}

type H3Event = {
  node?: { req?: { headers?: Record<string, string | string[] | undefined> } };
  headers?: Headers;
  request?: Request;
};

export function useCMSUser(event: H3Event, cms?: CMS | { cms: CMS } | null): Promise<User | null> {
  const source = event.request ?? event.headers ?? event.node?.req?.headers;
  if (!source) return Promise.resolve(null);
  return getCMSUser(source, cms ?? defaultCMS());
}
