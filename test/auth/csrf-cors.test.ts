/** CSRF and origin checks for cookie sessions; CORS for configured and trusted origins (docs/accounts.md). */
import { describe, expect, test, beforeAll, afterAll } from 'bun:test';
import { startTestServer, type Session, type TestServer } from '../harness.ts';

describe('CSRF and origin', () => {
  let t: TestServer;
  let s: Session;
  beforeAll(async () => {
    t = await startTestServer({
      auth: { trustedOrigins: ['https://trusted.example'] },
      cors: ['https://site.example'],
      collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text' }] }],
    });
    s = await t.user('editor');
  });
  afterAll(() => t.stop());

  const cookie = () => `cms-session=${s.token}`;
  const scenarios: { name: string; headers: () => Record<string, string>; status: number }[] = [
    {
      name: 'cookie + token + own origin is allowed',
      headers: () => ({ cookie: cookie(), 'x-csrf-token': s.csrfToken, origin: t.url }),
      status: 201,
    },
    {
      name: 'cookie + token + trusted origin is allowed',
      headers: () => ({ cookie: cookie(), 'x-csrf-token': s.csrfToken, origin: 'https://trusted.example' }),
      status: 201,
    },
    {
      name: 'cookie + token + Referer of own origin is allowed',
      headers: () => ({ cookie: cookie(), 'x-csrf-token': s.csrfToken, referer: `${t.url}/admin/x` }),
      status: 201,
    },
    { name: 'missing CSRF token is a 403', headers: () => ({ cookie: cookie(), origin: t.url }), status: 403 },
    {
      name: 'wrong CSRF token is a 403',
      headers: () => ({ cookie: cookie(), 'x-csrf-token': 'x'.repeat(43), origin: t.url }),
      status: 403,
    },
    {
      name: 'missing Origin is a 403',
      headers: () => ({ cookie: cookie(), 'x-csrf-token': s.csrfToken }),
      status: 403,
    },
    {
      name: 'foreign Origin is a 403',
      headers: () => ({ cookie: cookie(), 'x-csrf-token': s.csrfToken, origin: 'https://evil.example' }),
      status: 403,
    },
    {
      name: 'a CORS-only origin is not trusted for cookies',
      headers: () => ({ cookie: cookie(), 'x-csrf-token': s.csrfToken, origin: 'https://site.example' }),
      status: 403,
    },
    {
      name: 'bearer needs neither token nor origin',
      headers: () => ({ authorization: `Bearer ${s.token}`, origin: 'https://evil.example' }),
      status: 201,
    },
  ];
  for (const sc of scenarios) {
    test(sc.name, async () => {
      const before = (await t.cms.store.get<{ n: number }>('SELECT count(*) AS n FROM notes'))!;
      const res = await t.request('POST', '/notes', { body: { text: 'x' }, headers: sc.headers() });
      expect(res.status).toBe(sc.status);
      const after = (await t.cms.store.get<{ n: number }>('SELECT count(*) AS n FROM notes'))!;
      expect(after.n - before.n).toBe(sc.status === 201 ? 1 : 0);
    });
  }
  test('cookie reads need no CSRF token', async () => {
    expect((await t.request('GET', '/notes', { headers: { cookie: cookie() } })).status).toBe(200);
  });

  test('CORS: a configured origin gets headers, no credentials', async () => {
    const res = await t.request('GET', '/users/init', { headers: { origin: 'https://site.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
  test('CORS: a trusted origin also gets credentials', async () => {
    const res = await t.request('GET', '/users/init', { headers: { origin: 'https://trusted.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://trusted.example');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
  });
  test('CORS: any other origin gets no CORS headers at all', async () => {
    const res = await t.request('GET', '/users/init', { headers: { origin: 'https://evil.example' } });
    for (const [k] of res.headers) expect(k.startsWith('access-control-')).toBe(false);
  });
  test('CORS: preflight answered for allowed origins only', async () => {
    const ok = await t.request('OPTIONS', '/notes', {
      headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' },
    });
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://site.example');
    expect(ok.headers.get('access-control-allow-methods')).toContain('POST');
    expect(ok.headers.get('access-control-allow-headers')).toContain('x-csrf-token');
    expect(ok.headers.get('access-control-allow-headers')).toContain('x-cms-lock-token');
    const no = await t.request('OPTIONS', '/notes', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(no.headers.get('access-control-allow-origin')).toBeNull();
  });
  test('CORS: every answer varies by Origin, for allowed, other and missing origins alike', async () => {
    const varies = (res: { headers: Headers }) =>
      (res.headers.get('vary') ?? '')
        .split(',')
        .map((v) => v.trim().toLowerCase())
        .includes('origin');
    for (const origin of ['https://site.example', 'https://trusted.example', 'https://evil.example', null]) {
      const headers: Record<string, string> = origin ? { origin } : {};
      expect({ origin, vary: varies(await t.request('GET', '/notes', { headers })) }).toEqual({ origin, vary: true });
      expect({ origin, vary: varies(await t.request('GET', '/notes/999', { headers })) }).toEqual({
        origin,
        vary: true,
      });
      const pre = await t.request('OPTIONS', '/notes', {
        headers: { ...headers, 'access-control-request-method': 'POST' },
      });
      expect({ origin, vary: varies(pre) }).toEqual({ origin, vary: true });
    }
  });
  test('CORS headers also on errors', async () => {
    const res = await t.request('GET', '/notes/999', { headers: { origin: 'https://site.example' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://site.example');
  });
});
