/** Login, logout, me, init, first-register, cookies and bearer tokens (docs/accounts.md). */
import { describe, expect, test, beforeAll, afterAll } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';

const config = {
  auth: { tokenExpiration: 3600 },
  collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text' as const }] }],
};

describe('first admin and init', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(config);
  });
  afterAll(() => t.stop());

  test('init says there are no users', async () => {
    const res = await t.request('GET', '/users/init');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ hasUsers: false, initialized: false });
  });
  test('first-register refuses a short password and creates nothing', async () => {
    const res = await t.request('POST', '/users/first-register', {
      body: { email: 'a@example.com', password: 'short' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('password');
    expect((await t.request('GET', '/users/init')).body.hasUsers).toBe(false);
  });
  test('first-register creates an admin and logs in', async () => {
    const res = await t.request('POST', '/users/first-register', {
      body: { email: 'Boss@Example.com', password: 'password123', name: 'Boss' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ email: 'boss@example.com', role: 'admin', name: 'Boss', active: true });
    expect(typeof res.body.csrfToken).toBe('string');
    expect(typeof res.body.exp).toBe('number');
    expect(res.text).not.toContain('password');
    expect(res.text).not.toContain('passwordHash');
    const cookies = res.headers.getSetCookie();
    expect(
      cookies.some(
        (c) =>
          c.startsWith('cms-session=') &&
          /HttpOnly/i.test(c) &&
          /SameSite=Lax/i.test(c) &&
          /Path=\//.test(c) &&
          /Max-Age=3600/.test(c),
      ),
    ).toBe(true);
    expect(cookies.some((c) => c.startsWith('cms-csrf=') && !/HttpOnly/i.test(c))).toBe(true);
  });
  test('first-register is refused once a user exists', async () => {
    const res = await t.request('POST', '/users/first-register', {
      body: { email: 'b@example.com', password: 'password123' },
    });
    expect(res.status).toBe(403);
    expect((await t.request('GET', '/users/init')).body).toEqual({ hasUsers: true, initialized: true });
  });
});

describe('login, me, logout', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(config);
    await t.user('admin', 'admin@example.com', 'password123');
    await t.user('editor', 'ed@example.com', 'password123');
  });
  afterAll(() => t.stop());

  test('login answers { user, exp, csrfToken } and sets the cookies', async () => {
    const res = await t.request('POST', '/users/login', { body: { email: 'ED@example.com', password: 'password123' } });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('ed@example.com');
    expect(res.body.exp).toBeGreaterThan(Date.parse('2026-01-01') / 1000);
    expect(res.body.csrfToken.length).toBeGreaterThan(20);
    expect(res.text).not.toContain('password123');
    expect(res.text).not.toContain('scrypt');
  });
  test('unknown email and wrong password answer alike', async () => {
    const a = await t.request('POST', '/users/login', {
      body: { email: 'nobody@example.com', password: 'password123' },
    });
    const b = await t.request('POST', '/users/login', {
      body: { email: 'ed@example.com', password: 'wrong-password' },
    });
    expect(a.status).toBe(401);
    expect(b.status).toBe(401);
    expect(a.body).toEqual(b.body);
  });
  test('every login gets a new session token (no fixation)', async () => {
    const one = await t.login('ed@example.com', 'password123');
    const two = await t.login('ed@example.com', 'password123');
    expect(one.token).not.toBe(two.token);
    expect(one.token.length).toBeGreaterThanOrEqual(43); // 32 random bytes, base64url
  });
  test('me answers { user, csrfToken } for a cookie and for a bearer token', async () => {
    const s = await t.login('ed@example.com', 'password123');
    const byCookie = await t.request('GET', '/users/me', { headers: { cookie: `cms-session=${s.token}` } });
    expect(byCookie.body.user.email).toBe('ed@example.com');
    expect(byCookie.body.csrfToken).toBe(s.csrfToken);
    const byBearer = await t.request('GET', '/users/me', { token: s.token });
    expect(byBearer.body.user.email).toBe('ed@example.com');
    const nobody = await t.request('GET', '/users/me');
    expect(nobody.status).toBe(200);
    expect(nobody.body.user).toBeNull();
  });
  test('the session token is stored only hashed', async () => {
    const s = await t.login('ed@example.com', 'password123');
    const rows = await t.cms.store.all('SELECT * FROM _cms_sessions');
    expect(JSON.stringify(rows)).not.toContain(s.token);
  });
  test('logout ends that session only', async () => {
    const a = await t.login('ed@example.com', 'password123');
    const b = await t.login('ed@example.com', 'password123');
    const out = await t.request('POST', '/users/logout', { token: a.token });
    expect(out.status).toBe(200);
    expect((await t.request('GET', '/users/me', { token: a.token })).body.user).toBeNull();
    expect((await t.request('GET', '/users/me', { token: b.token })).body.user.email).toBe('ed@example.com');
  });
  test('a session expires after tokenExpiration (test clock)', async () => {
    const s = await t.login('ed@example.com', 'password123');
    expect((await t.request('GET', '/notes', { token: s.token })).status).toBe(200);
    t.clock.advance(3601 * 1000);
    expect((await t.request('GET', '/notes', { token: s.token })).status).toBe(401);
  });
  test('a password change ends every session; changing your own gives you a fresh one', async () => {
    const other = await t.login('ed@example.com', 'password123');
    const mine = await t.login('ed@example.com', 'password123');
    const res = await t.request('PATCH', `/users/${mine.user.id}`, {
      token: mine.token,
      body: { password: 'new-password-1' },
    });
    expect(res.status).toBe(200);
    expect(res.body.doc.email).toBe('ed@example.com');
    expect(typeof res.body.token).toBe('string');
    expect((await t.request('GET', '/notes', { token: other.token })).status).toBe(401);
    expect((await t.request('GET', '/notes', { token: mine.token })).status).toBe(401);
    expect((await t.request('GET', '/notes', { token: res.body.token })).status).toBe(200);
    expect(
      (await t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'password123' } })).status,
    ).toBe(401);
    expect(
      (await t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'new-password-1' } }))
        .status,
    ).toBe(200);
  });
  test('deactivating a user ends their sessions and blocks login', async () => {
    const admin = await t.login('admin@example.com', 'password123');
    const victim = await t.user('editor', 'victim@example.com', 'password123');
    const res = await t.request('PATCH', `/users/${victim.user.id}`, { token: admin.token, body: { active: false } });
    expect(res.status).toBe(200);
    expect((await t.request('GET', '/notes', { token: victim.token })).status).toBe(401);
    expect(
      (await t.request('POST', '/users/login', { body: { email: 'victim@example.com', password: 'password123' } }))
        .status,
    ).toBe(401);
  });
  test('no response or log line carries a password', async () => {
    const admin = await t.login('admin@example.com', 'password123');
    const list = await t.request('GET', '/users?limit=100', { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain('passwordHash');
    expect(list.text).not.toContain('scrypt$');
  });
});

describe('first-register race', () => {
  test('two racing first-register calls make exactly one admin', async () => {
    const t = await startTestServer(config);
    const results = await Promise.all([
      t.request('POST', '/users/first-register', { body: { email: 'one@example.com', password: 'password123' } }),
      t.request('POST', '/users/first-register', { body: { email: 'two@example.com', password: 'password123' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    expect((await t.cms.store.get<{ n: number }>('SELECT count(*) AS n FROM users'))!.n).toBe(1);
    await t.stop();
  });
});

describe('first-register across processes', () => {
  test('two instances on one database racing first-register make exactly one admin', async () => {
    const { tempDir, sharedTestDatabase } = await import('../harness.ts');
    const dir = tempDir();
    const shared = await sharedTestDatabase(dir);
    const a = await startTestServer({ ...config, database: shared.database }, { dir });
    const b = await startTestServer({ ...config, database: shared.database }, { dir });
    const results = await Promise.all([
      a.request('POST', '/users/first-register', { body: { email: 'one@example.com', password: 'password123' } }),
      b.request('POST', '/users/first-register', { body: { email: 'two@example.com', password: 'password123' } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
    expect((await a.cms.store.get<{ n: number }>('SELECT count(*) AS n FROM users'))!.n).toBe(1);
    await a.server.stop();
    await b.stop();
    await shared.drop();
  });
});
