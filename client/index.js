/**
 * A typed HTTP client for the CMS REST API with the Local API's method names, for code that runs where
 * the Local API cannot: static-site builds on Node (Astro, Eleventy, Next), Deno, browsers, workers.
 * Plain JavaScript with no imports beyond `fetch`, so any runtime or bundler takes it as it is; the types
 * are in index.d.ts (README, "Static sites").
 */

export class CMSClientError extends Error {
  /** @param {number} status @param {{ message: string, field?: string }[]} errors */
  constructor(status, errors) {
    super(errors[0]?.message ?? `The CMS answered ${status}`);
    this.name = 'CMSClientError';
    this.status = status;
    this.errors = errors;
  }
}

/** `where[title][equals]=x` bracket form (as qs writes it), which every query parameter of the API reads. */
function appendQuery(params, name, value) {
  if (value === undefined) return;
  if (value === null) params.append(name, 'null');
  else if (Array.isArray(value)) value.forEach((item, i) => appendQuery(params, `${name}[${i}]`, item));
  else if (typeof value === 'object')
    for (const [key, inner] of Object.entries(value)) appendQuery(params, `${name}[${key}]`, inner);
  else params.append(name, String(value));
}

const QUERY_KEYS = [
  'where',
  'sort',
  'limit',
  'page',
  'depth',
  'draft',
  'select',
  'populate',
  'pagination',
  'locale',
  'richText',
  'joins',
];

function queryOf(args) {
  const params = new URLSearchParams();
  for (const key of QUERY_KEYS) appendQuery(params, key, args[key]);
  if (args.fallbackLocale !== undefined) params.append('fallback-locale', String(args.fallbackLocale));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * @param {{ url: string, key?: string, token?: string, fetch?: typeof fetch, headers?: Record<string, string> }} options
 * `url`: the API base (`https://cms.example.com/api/cms`); a bare origin gets the default `/api/cms`.
 * `key`: an API key (`cms_…`), or `token`: a session token; sent as `Authorization: Bearer`.
 */
export function createClient(options) {
  if (!options || typeof options.url !== 'string')
    throw new TypeError('createClient needs { url }, the API base such as https://cms.example.com/api/cms');
  const parsed = new URL(options.url);
  const base = `${parsed.origin}${parsed.pathname === '/' ? '/api/cms' : parsed.pathname.replace(/\/+$/, '')}`;
  const send = options.fetch ?? globalThis.fetch;
  const credential = options.key ?? options.token;
  const headers = {
    accept: 'application/json',
    ...(credential ? { authorization: `Bearer ${credential}` } : {}),
    ...options.headers,
  };

  async function call(method, path, body) {
    const init = { method, headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await send(`${base}${path}`, init);
    const text = await res.text();
    let answer = null;
    try {
      answer = text ? JSON.parse(text) : null;
    } catch {
      answer = null;
    }
    if (!res.ok)
      throw new CMSClientError(
        res.status,
        Array.isArray(answer?.errors) ? answer.errors : [{ message: `The CMS answered ${res.status}` }],
      );
    return answer;
  }
  const slug = (value) => encodeURIComponent(String(value));
  const byWhere = (args) => args.id === undefined && args.where !== undefined;

  return {
    find: (args) => call('GET', `/${slug(args.collection)}${queryOf(args)}`),
    findByID: (args) =>
      call(
        'GET',
        `/${slug(args.collection)}/${slug(args.id)}${queryOf({ ...args, where: undefined, sort: undefined, limit: undefined, page: undefined })}`,
      ),
    count: (args) =>
      call(
        'GET',
        `/${slug(args.collection)}/count${queryOf({ where: args.where, draft: args.draft, locale: args.locale })}`,
      ),
    create: async (args) =>
      (
        await call(
          'POST',
          `/${slug(args.collection)}${queryOf({ depth: args.depth, draft: args.draft, locale: args.locale })}`,
          args.data,
        )
      ).doc,
    duplicate: async (args) =>
      (
        await call(
          'POST',
          `/${slug(args.collection)}/${slug(args.id)}/duplicate${queryOf({ depth: args.depth, locale: args.locale })}`,
          args.data ?? {},
        )
      ).doc,
    update: async (args) => {
      const query = { depth: args.depth, draft: args.draft, locale: args.locale };
      if (byWhere(args))
        return call('PATCH', `/${slug(args.collection)}${queryOf({ ...query, where: args.where })}`, args.data);
      return (await call('PATCH', `/${slug(args.collection)}/${slug(args.id)}${queryOf(query)}`, args.data)).doc;
    },
    delete: async (args) => {
      if (byWhere(args))
        return call(
          'DELETE',
          `/${slug(args.collection)}${queryOf({ where: args.where, draft: args.draft, locale: args.locale })}`,
        );
      return (await call('DELETE', `/${slug(args.collection)}/${slug(args.id)}`)).doc;
    },
    findGlobal: (args) =>
      call(
        'GET',
        `/globals/${slug(args.slug)}${queryOf({ depth: args.depth, draft: args.draft, locale: args.locale, fallbackLocale: args.fallbackLocale, select: args.select, populate: args.populate, richText: args.richText })}`,
      ),
    updateGlobal: async (args) =>
      (
        await call(
          'POST',
          `/globals/${slug(args.slug)}${queryOf({ depth: args.depth, draft: args.draft, locale: args.locale })}`,
          args.data,
        )
      ).doc,
  };
}
