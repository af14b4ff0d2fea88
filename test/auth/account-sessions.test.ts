/** Sessions you can see and end (docs/accounts.md): user agent, address, last use at most once a minute, `current`, admins via `?user=`. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { runScenarios, startTestServer, type TestServer } from '../harness.ts';

// A user signed in once before any row runs: the admin rows look at their session, not at one a row made.
let seededUserId = 0;
const seed = async (t: TestServer) => {
  seededUserId = (await t.user('editor', 'seeded@example.com')).user.id as number;
};

runScenarios(
  'session routes',
  {},
  [
    {
      name: 'listing needs a user',
      method: 'GET',
      url: '/users/sessions',
      status: 401,
      contains: ['"errors"', 'You must be logged in'],
      events: { '*': 0 },
    },
    {
      name: 'a user lists their own sessions',
      method: 'GET',
      url: '/users/sessions',
      as: 'editor',
      status: 200,
      contains: ['"docs":[', '"current":true', '"userAgent":', '"ip":"127.0.0.1"', '"lastUsedAt":"', '"expiresAt":"'],
      notContains: ['tokenHash', 'csrfToken'],
    },
    {
      name: "an editor cannot list another user's sessions",
      method: 'GET',
      url: '/users/sessions?user=999',
      as: 'editor',
      status: 403,
      contains: ['"errors"', "Only admins can manage another user's account."],
      events: { '*': 0 },
    },
    {
      name: "an admin lists another user's sessions",
      method: 'GET',
      url: () => `/users/sessions?user=${seededUserId}`,
      as: 'admin',
      status: 200,
      contains: ['"docs":[{', '"current":false'],
      notContains: ['"current":true'],
    },
    {
      name: 'an admin asking for an unknown user gets a 404',
      method: 'GET',
      url: '/users/sessions?user=999',
      as: 'admin',
      status: 404,
      contains: ['"errors"', 'User not found.'],
      events: { '*': 0 },
    },
    {
      name: 'ending an unknown session is a 404',
      method: 'DELETE',
      url: '/users/sessions/0123abcd',
      as: 'editor',
      status: 404,
      contains: ['"errors"', 'Session not found.'],
      events: { '*': 0 },
    },
    {
      name: 'ending a session by cookie needs the CSRF token',
      method: 'DELETE',
      url: '/users/sessions/0123abcd',
      as: 'cookie:editor',
      headers: { 'x-csrf-token': 'nope' },
      status: 403,
      contains: ['"errors"', 'Missing or invalid CSRF token.'],
      events: { '*': 0 },
    },
    {
      name: 'the sessions path takes GET and DELETE only',
      method: 'POST',
      url: '/users/sessions',
      as: 'editor',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
      events: { '*': 0 },
    },
  ],
  { seed },
);

describe('seeing and ending sessions', () => {
  let t: TestServer;
  const loginAs = async (agent: string, email = 'ed@example.com') => {
    const res = await t.request('POST', '/users/login', {
      body: { email, password: 'password123' },
      headers: { 'user-agent': agent },
    });
    expect(res.status).toBe(200);
    return res.body.token as string;
  };
  const list = async (token: string, query = '') =>
    (await t.request('GET', `/users/sessions${query}`, { token })).body.docs as Record<string, any>[];

  beforeAll(async () => {
    t = await startTestServer({});
    await t.user('admin', 'admin@example.com', 'password123');
    await t.user('editor', 'ed@example.com', 'password123');
  });
  afterAll(() => t.stop());

  test('each session shows where it came from, and which one is asking', async () => {
    const laptop = await loginAs('Laptop/1.0');
    const phone = await loginAs('Phone/2.0');
    const fromLaptop = await list(laptop);
    expect(fromLaptop.length).toBe(3); // t.user's session too
    const current = fromLaptop.filter((s) => s.current);
    expect(current).toHaveLength(1);
    expect(current[0].userAgent).toBe('Laptop/1.0');
    expect(current[0]).toMatchObject({
      ip: '127.0.0.1',
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUsedAt: '2026-01-01T00:00:00.000Z',
      expiresAt: '2026-01-08T00:00:00.000Z',
    });
    expect(typeof current[0].id).toBe('string');
    expect((await list(phone)).find((s) => s.current)!.userAgent).toBe('Phone/2.0');
  });

  test('lastUsedAt moves at most once a minute', async () => {
    const token = await loginAs('Clock/1.0');
    const lastUsed = async () => (await list(token)).find((s) => s.current)!.lastUsedAt;
    const start = t.clock.now();
    t.clock.advance(30_000);
    expect(await lastUsed()).toBe(new Date(start).toISOString());
    t.clock.advance(31_000);
    expect(await lastUsed()).toBe(new Date(start + 61_000).toISOString());
    t.clock.advance(59_000);
    expect(await lastUsed()).toBe(new Date(start + 61_000).toISOString());
  });

  test('ending one session signs that one out only', async () => {
    const mine = await loginAs('Mine/1.0');
    const other = await loginAs('Other/1.0');
    const target = (await list(mine)).find((s) => s.userAgent === 'Other/1.0')!;
    const res = await t.request('DELETE', `/users/sessions/${target.id}`, { token: mine });
    expect(res.status).toBe(200);
    expect((await t.request('GET', '/users/me', { token: other })).body.user).toBeNull();
    expect((await t.request('GET', '/users/me', { token: mine })).body.user.email).toBe('ed@example.com');
  });

  test("one cannot end another user's session by its id", async () => {
    const admin = await loginAs('Admin/1.0', 'admin@example.com');
    const adminSession = (await list(admin)).find((s) => s.current)!;
    const ed = await loginAs('Ed/1.0');
    expect((await t.request('DELETE', `/users/sessions/${adminSession.id}`, { token: ed })).status).toBe(404);
    expect((await t.request('GET', '/users/me', { token: admin })).body.user.email).toBe('admin@example.com');
  });

  test('"sign out all others" keeps the current session', async () => {
    const keep = await loginAs('Keep/1.0');
    const gone = await loginAs('Gone/1.0');
    const res = await t.request('DELETE', '/users/sessions', { token: keep });
    expect(res.status).toBe(200);
    expect(res.body.ended).toBeGreaterThan(0);
    expect((await t.request('GET', '/users/me', { token: gone })).body.user).toBeNull();
    const left = await list(keep);
    expect(left).toHaveLength(1);
    expect(left[0].current).toBe(true);
  });

  test("an admin sees and ends another user's sessions with ?user=", async () => {
    const ed = await loginAs('Ed/2.0');
    const edId = (await t.request('GET', '/users/me', { token: ed })).body.user.id;
    const admin = await loginAs('Admin/2.0', 'admin@example.com');
    const seen = await list(admin, `?user=${edId}`);
    const session = seen.find((s) => s.userAgent === 'Ed/2.0')!;
    expect(session.current).toBe(false);
    expect((await t.request('DELETE', `/users/sessions/${session.id}?user=${edId}`, { token: admin })).status).toBe(
      200,
    );
    expect((await t.request('GET', '/users/me', { token: ed })).body.user).toBeNull();
  });

  test('an API key has no sessions to manage', async () => {
    const admin = await loginAs('Admin/3.0', 'admin@example.com');
    const key = await t.request('POST', '/api-keys', { token: admin, body: { name: 'k', user: 1, scopes: ['*'] } });
    expect((await t.request('GET', '/users/sessions', { token: key.body.key })).status).toBe(403);
  });
});

describe('behind a trusted proxy', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ trustProxy: true });
    await t.user('editor', 'ed@example.com', 'password123');
  });
  afterAll(() => t.stop());

  test('the address is the client one the proxy reports', async () => {
    const res = await t.request('POST', '/users/login', {
      body: { email: 'ed@example.com', password: 'password123' },
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    const docs = (await t.request('GET', '/users/sessions', { token: res.body.token })).body.docs;
    expect(docs.find((s: { current: boolean }) => s.current).ip).toBe('203.0.113.7');
  });
});
