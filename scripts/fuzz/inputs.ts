/**
 * The probe's classes of bad input, as generators of requests: deep, huge and odd JSON bodies; broken
 * multipart; odd paths; odd query strings; bad cookies and auth headers; wrong methods; values at and past
 * the size limits and percent-encoded parameter names. Every size is
 * bounded (a few MB at most), so a run measures the server, not the fuzzer's memory.
 *
 * Requests are well-formed HTTP with bad content. Broken framing — control bytes or spaces in the request
 * line, methods Bun does not know — is refused by Bun's HTTP parser before the app runs (505, or the
 * connection closed), which no code of ours can change (docs/security.md).
 */
export type FuzzRequest = {
  method: string;
  /** Path and query as sent, byte for byte when `raw`. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  /** Send over a plain socket: for paths and methods fetch() would normalise or refuse. */
  raw?: boolean;
  /** Send the admin's bearer token, so the request reaches past the access checks. */
  auth?: boolean;
};

export type Random = { int(max: number): number; pick<T>(list: readonly T[]): T; chance(p: number): boolean };

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    // mulberry32: small, fast, and the same sequence for the same seed on every machine.
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (max) => Math.floor(next() * max),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const API = '/api/cms';
const JSON_TARGETS: [string, string][] = [
  ['POST', '/posts'],
  ['POST', '/posts?draft=true'],
  ['PATCH', '/posts/1'],
  ['PATCH', '/posts/2?draft=true&locale=de'],
  ['POST', '/globals/settings'],
  ['POST', '/globals/settings?draft=true'],
  ['POST', '/users/login'],
  ['POST', '/users/first-register'],
  ['POST', '/posts/1/preview'],
  ['POST', '/posts/preview'],
  ['POST', '/globals/settings/preview'],
  ['POST', '/posts/1/schedule'],
  ['POST', '/globals/settings/schedule'],
  ['POST', '/api-keys'],
  ['POST', '/users'],
  ['POST', '/posts/1/versions/1/restore'],
  ['POST', '/jobs/run'],
];
const FIELDS = [
  'title',
  'body',
  'views',
  'featured',
  'published',
  'email',
  'tags',
  'author',
  'related',
  'cover',
  'meta',
  'seo',
  'items',
  'secret',
  'status',
  'siteName',
  'limits',
  'id',
  'createdAt',
  'email',
  'password',
  'action',
  'at',
  'name',
  'user',
  'scopes',
  'expiresAt',
  'role',
];
const WEIRD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  -0,
  1.5,
  1e308,
  -1e308,
  9007199254740993,
  '',
  ' ',
  'x',
  'null',
  'NaN',
  'Infinity',
  '2020-13-45',
  '0000-00-00T00:00:00Z',
  '\u0000',
  '\ud800',
  '\u202e',
  '%',
  '%00',
  "' OR 1=1 --",
  '{"$gt":""}',
  'a'.repeat(70_000),
  [],
  [null],
  [[]],
  [{}],
  [1, 'a', null],
  {},
  { en: 1 },
  { en: {}, de: [] },
  { equals: 1 },
  { $gt: 1 },
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
  { label: {} },
  [{ label: null, cost: 'x' }],
  [{ label: 'l', cost: 1e400 }],
  { title: ['x'] },
  Array.from({ length: 1000 }, (_, i) => i),
];

function nested(depth: number, open: string, close: string, leaf = '1'): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

function weirdDocument(r: Random): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  for (let i = 1 + r.int(5); i > 0; i--) doc[r.pick(FIELDS)] = r.pick(WEIRD_VALUES);
  return doc;
}

function jsonBody(r: Random): { body: string | Uint8Array; type?: string } {
  switch (r.int(12)) {
    case 0:
      return { body: nested(r.pick([100, 1_000, 10_000, 200_000]), '[', ']') };
    case 1:
      return { body: nested(r.pick([100, 1_000, 10_000, 200_000]), '{"title":', '}') };
    case 2:
      return { body: JSON.stringify({ title: 'x'.repeat(r.pick([100_000, 1_000_000, 3_000_000])) }) };
    case 3:
      return {
        body: JSON.stringify(
          Object.fromEntries(Array.from({ length: r.pick([1_000, 50_000]) }, (_, i) => [`f${i}`, i])),
        ),
      };
    case 4:
      return {
        body: r.pick([
          'null',
          '[]',
          '1',
          '"s"',
          'true',
          '',
          ' ',
          '{',
          '{"title":}',
          '{"a":1,}',
          '\ufeff{}',
          '{"title":"x"}garbage',
          '[{"title":1}]',
        ]),
      };
    case 5:
      return { body: new Uint8Array([0x7b, 0x22, 0x74, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]) };
    case 6:
      return {
        body: JSON.stringify(weirdDocument(r)),
        type: r.pick([
          'text/plain',
          'application/json; charset=utf-16',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          '',
          'application/json;;;',
        ]),
      };
    case 7:
      return {
        body: JSON.stringify({
          seo: JSON.parse(nested(500, '{"title":', '}', '"x"')),
          items: Array.from({ length: 5_000 }, () => ({ label: 'l' })),
        }),
      };
    case 8:
      return {
        body: JSON.stringify({
          data: weirdDocument(r),
          depth: r.pick([-1, 1e9, 'x', [], null]),
          locale: r.pick(['zz', ['en'], {}, 'all']),
        }),
      };
    default:
      return { body: JSON.stringify(weirdDocument(r)) };
  }
}

function jsonBodies(r: Random): FuzzRequest {
  const [method, path] = r.pick(JSON_TARGETS);
  const { body, type } = jsonBody(r);
  return {
    method,
    path: API + path,
    body,
    headers: { 'content-type': type ?? 'application/json' },
    auth: r.chance(0.6),
  };
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

function multipartBody(r: Random, boundary: string): string | Uint8Array {
  const part = (disposition: string, content: string, type = 'application/octet-stream') =>
    `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${type}\r\n\r\n${content}\r\n`;
  const end = `--${boundary}--\r\n`;
  switch (r.int(14)) {
    case 0:
      return part('form-data; name="file"; filename="a.png"', 'data'); // no closing boundary
    case 1:
      return part('form-data; name="file"; filename="a.png"', 'x'.repeat(10_000)).slice(0, 5_000); // cut mid-part
    case 2:
      return `--${boundary}\r\n\r\nno headers\r\n${end}`;
    case 3:
      return part('form-data; filename="a.png"', 'no name') + end;
    case 4:
      return (
        part(
          `form-data; name="file"; filename="${r.pick(['../../etc/passwd', '\u0000.png', 'a'.repeat(10_000), '', '.', '..', 'CON', '%00.png', 'a\r\nb.png'])}"`,
          'data',
          'image/png',
        ) + end
      );
    case 5:
      return part('form-data; name="file"; filename*=UTF-8\'\'%ZZ%E0%A4%A.png', 'data') + end;
    case 6:
      return (
        part('form-data; name="file"; filename="a.png"', 'data') +
        part(
          'form-data; name="_payload"',
          r.pick(['{', '[]', 'null', nested(5_000, '{"a":', '}'), JSON.stringify(weirdDocument(r))]),
        ) +
        end
      );
    case 7:
      return `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\nX-Long: ${'h'.repeat(100_000)}\r\n\r\ndata\r\n${end}`;
    case 8:
      return part('form-data; name="file"; filename="a.png"', '') + end;
    case 9:
      return Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        PNG,
        Buffer.from(`garbage\r\n${end}`),
      ]);
    case 10:
      return (
        part('form-data; name="file"; filename="a.png"', 'one') +
        part('form-data; name="file"; filename="b.png"', 'two') +
        end
      );
    case 11:
      return Array.from({ length: 300 }, (_, i) => part(`form-data; name="f${i}"`, 'v')).join('') + end;
    case 12:
      return part('attachment; name="file"', 'x') + end;
    default:
      return 'not multipart at all';
  }
}

function brokenMultipart(r: Random): FuzzRequest {
  const boundary = r.pick(['b0undary', 'x'.repeat(70), 'a b', '--', 'é']);
  const type = r.pick([
    `multipart/form-data; boundary=${boundary}`,
    `multipart/form-data; boundary="${boundary}"`,
    'multipart/form-data',
    'multipart/form-data; boundary=',
    `multipart/form-data; boundary=${boundary}x`,
    `multipart/mixed; boundary=${boundary}`,
    `multipart/form-data; boundary=${'z'.repeat(200)}`,
  ]);
  const target = r.pick(['/media', '/media', '/media/1', '/media?draft=true', '/posts']);
  return {
    method: target === '/media/1' ? 'PATCH' : 'POST',
    path: API + target,
    headers: { 'content-type': type },
    body: multipartBody(r, boundary),
    auth: r.chance(0.7),
  };
}

const SEGMENTS = [
  'posts',
  'users',
  'media',
  'globals',
  'settings',
  'versions',
  'schedule',
  'preview',
  'restore',
  'unpublish',
  'discard-draft',
  'file',
  'api-keys',
  'webhook-deliveries',
  'jobs',
  'run',
  'login',
  'me',
  '1',
  '2',
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999999',
  'NaN',
  'Infinity',
  '%20',
  '%201',
  '%D9%A1',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  '..',
  '.',
  '%2e%2e',
  '%2E%2E%2F',
  '%2F',
  '%5C',
  '%00',
  '%',
  '%zz',
  '%E0%A4%A',
  '%ff',
  '~',
  '*',
  '',
  'a'.repeat(300),
  ';',
  '?',
  '#',
];

function oddPaths(r: Random): FuzzRequest {
  if (r.chance(0.15)) {
    const fixed = r.pick([
      '/admin/../api/cms/users',
      '/admin/%2e%2e/%2e%2e/etc/passwd',
      '/admin/%',
      '/admin/..%2f..%2fetc%2fpasswd',
      '/admin/' + 'a'.repeat(8_000),
      '//api/cms/posts',
      '/api/cms/posts/' + '1'.repeat(5_000),
      '/api/cms/posts/1/versions/%ZZ',
      '/api/cms/globals/%ff/versions',
      '/api/cms/media/file/..%2f..%2fcms.config.ts',
      '/api/cms/media/file/%00',
      '/api/cms/media/file/' + 'a'.repeat(5_000),
      '/api/cms/posts/1%00',
      '/api/cms/posts/\u00ff',
      '*',
      '/api/cms/posts\\1',
    ]);
    return { method: r.pick(['GET', 'GET', 'DELETE', 'PATCH']), path: fixed, raw: true, auth: r.chance(0.5) };
  }
  const parts = Array.from({ length: 1 + r.int(5) }, () => r.pick(SEGMENTS));
  return {
    method: r.pick(['GET', 'GET', 'GET', 'POST', 'PATCH', 'DELETE']),
    path: `${API}/${parts.join('/')}`,
    raw: true,
    body: r.chance(0.3) ? '{}' : undefined,
    auth: r.chance(0.5),
  };
}

const QUERY_TARGETS = [
  '/posts',
  '/posts',
  '/posts/1',
  '/posts/1/versions',
  '/posts/1/versions/1',
  '/globals/settings',
  '/globals/settings/versions',
  '/users',
  '/media',
  '/api-keys',
  '/posts/1/schedule',
];
const QUERY_PARTS: (() => string)[] = [
  () => `where${'[a]'.repeat(60)}=1`,
  () => `where=${encodeURIComponent(nested(2_000, '{"or":[', ']}', '{}'))}`,
  () =>
    `where=${encodeURIComponent(JSON.stringify({ or: Array.from({ length: 400 }, (_, i) => ({ title: { equals: `t${i}` } })) }))}`,
  () => 'where[title][regex]=x',
  () => 'where[title][$gt]=x',
  () => 'where[title][__proto__]=x',
  () => 'where[__proto__][equals]=1',
  () => 'where[constructor][prototype][x]=1',
  () => 'limit[]=1',
  () => 'page[a]=2',
  () => 'depth[]=1',
  () => 'sort[0][a]=1',
  () => 'locale[]=en',
  () => 'draft[]=true',
  () => 'preview[]=x',
  () => 'fallback-locale[x]=1',
  () => 'where[title][equals][]=a&where[title][equals][]=b',
  () => 'where[views][gt][a]=1',
  () => 'where[title][in][a][b]=1',
  () => 'where[title][like][0]=a',
  () => 'limit=1e309',
  () => 'page=99999999999999999999',
  () => 'page=9007199254740993',
  () => 'depth=99999999999999999',
  () => 'limit=-0',
  () => 'page=-1',
  () => 'limit=%',
  () => 'where[title][equals]=%',
  () => 'where[title][equals]=%E0%A4%A',
  () => 'where=%7B',
  () => 'where=null',
  () => 'where=[]',
  () => 'where=1',
  () => 'where[or]=x',
  () => 'where[and][0]=1',
  () => 'where[or][a][b]=1',
  () => 'where[and][0][or][0][and][0][title][exists]=maybe',
  () => 'where[createdAt][gt]=99999999999999999999',
  () => 'where[views][equals]=1e400',
  () => 'where[published][lt]=-99999999999999',
  () => 'where[id][equals]=99999999999999999999999',
  () => 'where[id][in]=1,,,2,x',
  () => 'where[author][equals]=-1',
  () => 'where[related][in]=1e3',
  () => 'where[tags][not_in][]=',
  () => 'where[tags][exists]=1',
  () => 'where[title.x.y][equals]=1',
  () => 'where[seo.title][like]=a',
  () => 'where[seo.token][equals]=t',
  () => 'where[items.cost][gt]=0',
  () => 'where[items.label][in]=l',
  () => 'where[secret][like]=a',
  () => 'where[meta.a.b][equals]=1',
  () => 'where[status][equals]=published',
  () => `where[title][like]=${'a+'.repeat(3_000)}`,
  () => `where[title][contains]=${'%25'.repeat(2_000)}`,
  () => `where[title][in]=${'1,'.repeat(3_000)}`,
  () => 'sort=-',
  () => 'sort=--title',
  () => 'sort=,,,',
  () => 'sort=seo',
  () => 'sort=items.label',
  () => 'sort=tags',
  () => 'sort=secret',
  () => `sort=${'views,'.repeat(1_500)}`,
  () => 'locale=zz',
  () => 'locale=all',
  () => 'locale=all&fallback-locale=zz',
  () => 'fallback-locale=none',
  () => 'draft=true',
  () => 'preview=x.y',
  () => 'preview=%',
  () => `${'a'.repeat(100)}=${'b'.repeat(100)}`,
  () => Array.from({ length: 2_500 }, (_, i) => `p${i}=1`).join('&'),
  () => '&&&==&=',
  () => '%',
  () => '[',
  () => 'a[=1',
];

function oddQueries(r: Random): FuzzRequest {
  const query = Array.from({ length: 1 + r.int(4) }, () => r.pick(QUERY_PARTS)()).join('&');
  const method = r.pick(['GET', 'GET', 'GET', 'DELETE', 'PATCH']);
  const body = method === 'PATCH' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {};
  return { method, path: `${API}${r.pick(QUERY_TARGETS)}?${query}`, ...body, auth: r.chance(0.5) };
}

function badCredentials(r: Random, token: string): FuzzRequest {
  const headers: Record<string, string> = {};
  switch (r.int(4)) {
    case 0:
      headers.cookie = r.pick([
        'cms-session=%',
        'cms-session=%%%',
        `cms-session=${'a'.repeat(8_000)}`,
        'cms-session=a; cms-session=b',
        '=',
        ';;;',
        'cms-session="q"',
        'cms-session',
        `cms-session=${token}%`,
        'cms-csrf=%; cms-session=%zz',
      ]);
      break;
    case 1:
      headers.authorization = r.pick([
        'Bearer',
        'Bearer ',
        'Bearer cms_',
        `Bearer cms_${'x'.repeat(5_000)}`,
        'Basic Zm9vOmJhcg==',
        'JWT x',
        'users API-Key x',
        'Bearer a b c',
        `Bearer ${token}x`,
        `bearer\t${token}`,
        'Bearer %',
        'Bearer \u00ff',
      ]);
      break;
    case 2:
      // A real session as a cookie, with a bad CSRF header or origin.
      headers.cookie = `cms-session=${token}`;
      headers['x-csrf-token'] = r.pick(['', '%', 'x'.repeat(10_000), token]);
      headers.origin = r.pick([
        'null',
        'http://[::1',
        'javascript:alert(1)',
        'http://a:99999',
        'http://127.0.0.1:1',
        '%',
        '',
      ]);
      if (r.chance(0.5)) headers.referer = r.pick(['http://[', '::::', 'http://127.0.0.1/x']);
      break;
    default:
      headers['x-forwarded-for'] = r.pick(['1.1.1.1, garbage', '%', 'a'.repeat(5_000)]);
      headers['x-http-method-override'] = r.pick(['GET', 'DELETE', 'x']);
      headers['accept-language'] = r.pick(['*', 'zz;q=x', '']);
  }
  const [method, path] = r.pick<[string, string]>([
    ['GET', '/posts'],
    ['GET', '/users/me'],
    ['POST', '/posts'],
    ['PATCH', '/posts/1'],
    ['DELETE', '/posts/3'],
    ['GET', '/jobs/run'],
    ['POST', '/jobs/run'],
    ['POST', '/users/refresh-token'],
    ['GET', '/api-keys'],
  ]);
  return {
    method,
    path: API + path,
    headers,
    body: method === 'GET' ? undefined : JSON.stringify({ title: 'x' }),
    raw: /[^\x20-\x7e]/.test(Object.values(headers).join('')),
  };
}

const ALL_PATHS = [
  '/posts',
  '/posts/1',
  '/posts/1/versions',
  '/posts/1/versions/1/restore',
  '/posts/1/schedule',
  '/posts/1/schedule/1',
  '/posts/1/preview',
  '/posts/1/unpublish',
  '/globals/settings',
  '/globals/settings/versions',
  '/users/login',
  '/users/me',
  '/users/first-register',
  '/media',
  '/media/1',
  '/jobs/run',
  '/webhook-deliveries',
  '/api-keys',
];

function wrongMethods(r: Random): FuzzRequest {
  const method = r.pick([
    'PUT',
    'PATCH',
    'DELETE',
    'POST',
    'HEAD',
    'OPTIONS',
    'TRACE',
    'PROPFIND',
    'CONNECT',
    'MKCOL',
    'LOCK',
  ]);
  const headers: Record<string, string> =
    method === 'OPTIONS'
      ? {
          origin: r.pick(['http://evil.example', 'null', '%']),
          'access-control-request-method': r.pick(['PUT', '%', 'x'.repeat(1_000)]),
          'access-control-request-headers': r.pick(['x-csrf-token', '%,,', 'a'.repeat(2_000)]),
        }
      : {};
  return {
    method,
    path: API + r.pick(ALL_PATHS),
    headers,
    body: r.chance(0.5) ? '{"title":"x"}' : undefined,
    raw: true,
    auth: r.chance(0.5),
  };
}

// Logout is left out on purpose: with the admin's token it would end the session the other classes use.
/** Parameter names spelled with percent-encodings (`pr%65view`, `%77here[...]`): the server must read them as the parser does. */
const ENCODED_NAMES = [
  'pr%65view=x.y',
  '%70review=%',
  '%70%72%65%76%69%65%77=a.b',
  'preview%5B%5D=x',
  '%77here%5Btitle%5D%5Bequals%5D=x',
  'wh%65re[secret][equals]=s',
  'where%5Bseo.token%5D%5Bexists%5D=true',
  '%6cimit=1000',
  'l%69mit=0',
  'd%65pth=99999',
  'dr%61ft=true',
  'loc%61le=zz',
  '%73ort=-secret',
  '%73elect[secret]=true',
  '%5F%5Fproto%5F%5F[x]=1',
  'constructor%5Bprototype%5D%5Bx%5D=1',
  'where%00=1',
  '%00=1',
  '%FF%FE=1',
  '%G1=1',
  '%=1',
  'where%5B=1',
  '%5Bwhere%5D=1',
  'fallback%2Dlocale=zz',
  'pagination=%66alse',
  'where[title][%65quals]=x',
  'where[title][%24gt]=x',
  'where[%74itle][like]=a',
];

/** Values at and past the size limits: in bodies (text, textarea, markdown, json, arrays, hasMany) and in query strings. */
function longValue(r: Random): string {
  return 'x'.repeat(r.pick([65_535, 65_536, 65_537, 200_000, 1_048_577, 2_500_000]));
}

function longValuesAndEncodedNames(r: Random): FuzzRequest {
  switch (r.int(3)) {
    case 0: {
      const query = Array.from({ length: 1 + r.int(3) }, () => r.pick(ENCODED_NAMES)).join('&');
      return { method: 'GET', path: `${API}${r.pick(QUERY_TARGETS)}?${query}`, raw: true, auth: r.chance(0.5) };
    }
    case 1: {
      // Under Bun's 16 KB request head, so the value reaches the app.
      const value = 'y'.repeat(r.pick([1_000, 5_000, 12_000]));
      const name = r.pick([
        'where[title][equals]',
        'where[title][like]',
        'where[body][contains]',
        'sort',
        'locale',
        'preview',
        'where[meta.a][equals]',
        'select[title]',
      ]);
      return { method: 'GET', path: `${API}${r.pick(QUERY_TARGETS)}?${name}=${value}`, auth: r.chance(0.5) };
    }
    default: {
      const field = r.pick(['title', 'body', 'meta', 'seo', 'items', 'tags', 'siteName', 'email', 'name']);
      const value =
        field === 'meta'
          ? { text: longValue(r) }
          : field === 'seo'
            ? { title: longValue(r) }
            : field === 'items'
              ? [{ label: longValue(r) }]
              : field === 'tags'
                ? [longValue(r)]
                : longValue(r);
      const [method, path] = r.pick(JSON_TARGETS);
      return {
        method,
        path: API + path,
        body: JSON.stringify({ [field]: value }),
        headers: { 'content-type': 'application/json' },
        auth: true,
      };
    }
  }
}

export const INPUT_CLASSES: { name: string; make(r: Random, token: string): FuzzRequest }[] = [
  { name: 'long values and encoded names', make: longValuesAndEncodedNames },
  { name: 'json bodies', make: jsonBodies },
  { name: 'broken multipart', make: brokenMultipart },
  { name: 'odd paths', make: oddPaths },
  { name: 'odd queries', make: oddQueries },
  { name: 'bad credentials', make: badCredentials },
  { name: 'wrong methods', make: wrongMethods },
];
