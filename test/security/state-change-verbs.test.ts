/**
 * Attack: make a logged-in browser change state from another site (docs/accounts.md).
 * An <img src=".../jobs/run"> sends a cookie GET; a hidden form posts to login (login CSRF) or logout.
 * GET /jobs/run never runs anything for a cookie session, login and logout check Origin, and a wrong
 * cron secret is "no valid credentials" (401).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { draftsConfig, JOBS_SECRET } from '../fixtures/drafts-config.ts';

const HOUR = 3600_000;
const EVIL = 'https://evil.example';

describe('GET /jobs/run with a cookie session runs nothing', () => {
  let t: TestServer;
  let admin: Session;
  beforeAll(async () => {
    t = await startTestServer(draftsConfig());
    admin = await t.user('admin');
    const post = await t.request('POST', '/posts?draft=true', { token: admin.token, body: { title: 'Embargoed' } });
    const at = new Date(t.clock.now() + HOUR).toISOString();
    expect(
      (
        await t.request('POST', `/posts/${post.body.doc.id}/schedule`, {
          token: admin.token,
          body: { action: 'publish', at },
        })
      ).status,
    ).toBe(201);
    t.clock.advance(2 * HOUR);
  });
  afterAll(() => t.stop());

  const pending = async () => (await t.request('GET', '/posts/1/schedule', { token: admin.token })).body.docs.length;

  test('a cross-site GET carrying only the cookie (an <img> tag) is refused and the due job stays pending', async () => {
    const res = await t.request('GET', '/jobs/run', { headers: { cookie: `cms-session=${admin.token}` } });
    expect(res.status).toBe(403);
    expect(res.body.errors[0].message).toContain('POST');
    expect(await pending()).toBe(1);
  });

  test('even with the CSRF header and own origin, GET is not the verb for a cookie session', async () => {
    expect((await t.request('GET', '/jobs/run', { cookie: admin })).status).toBe(403);
    expect((await t.request('HEAD', '/jobs/run', { cookie: admin })).status).toBe(403);
    expect(await pending()).toBe(1);
  });

  test('a cookie POST from another origin is refused', async () => {
    expect((await t.request('POST', '/jobs/run', { cookie: admin, headers: { origin: EVIL } })).status).toBe(403);
    expect(await pending()).toBe(1);
  });

  test('a wrong cron secret is a 401 with either verb', async () => {
    for (const method of ['GET', 'POST']) {
      expect(
        (await t.request(method, '/jobs/run', { headers: { authorization: 'Bearer not-the-secret' } })).status,
      ).toBe(401);
    }
    expect(await pending()).toBe(1);
  });

  test('a cookie POST with the CSRF token from the own origin runs the job', async () => {
    const res = await t.request('POST', '/jobs/run', { cookie: admin });
    expect(res.status).toBe(200);
    expect(res.body.jobs).toEqual({ ran: 1, failed: 0 });
  });

  test('the cron secret still works with GET and POST', async () => {
    for (const method of ['GET', 'POST']) {
      expect(
        (await t.request(method, '/jobs/run', { headers: { authorization: `Bearer ${JOBS_SECRET}` } })).status,
      ).toBe(200);
    }
  });
});

describe('login and logout check Origin', () => {
  let t: TestServer;
  const sessionCount = async () => (await t.cms.store.get<{ n: number }>('SELECT count(*) AS n FROM _cms_sessions'))!.n;
  const login = (headers: Record<string, string>) =>
    t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'password123' }, headers });
  beforeAll(async () => {
    t = await startTestServer({
      cors: ['https://site.example'],
      auth: { trustedOrigins: ['https://trusted.example'] },
    });
    await t.user('editor', 'ed@example.com', 'password123');
  });
  afterAll(() => t.stop());

  test('a login posted from a foreign origin (login CSRF) is a 403 and makes no session', async () => {
    const before = await sessionCount();
    for (const origin of [EVIL, 'null']) {
      const res = await login({ origin });
      expect(res.status).toBe(403);
      expect(res.headers.get('set-cookie')).toBeNull();
      expect(res.text).not.toContain('token');
    }
    expect(await sessionCount()).toBe(before);
  });

  test('own, trusted and cors origins may log in; so may scripts that send no Origin', async () => {
    const origins: Record<string, string>[] = [
      { origin: t.url },
      { origin: 'https://trusted.example' },
      { origin: 'https://site.example' },
      {},
    ];
    for (const headers of origins) {
      expect((await login(headers)).status).toBe(200);
    }
  });

  test('first-register from a foreign origin is refused before it creates anything', async () => {
    const fresh = await startTestServer();
    const res = await fresh.request('POST', '/users/first-register', {
      body: { email: 'boss@example.com', password: 'password123' },
      headers: { origin: EVIL },
    });
    expect(res.status).toBe(403);
    expect((await fresh.request('GET', '/users/init')).body.hasUsers).toBe(false);
    await fresh.stop();
  });

  test('logout by cookie without the CSRF token or from a foreign origin is a 403 and the session lives on', async () => {
    const s = await t.login('ed@example.com', 'password123');
    const cookie = `cms-session=${s.token}`;
    expect((await t.request('POST', '/users/logout', { headers: { cookie, origin: t.url } })).status).toBe(403);
    expect(
      (await t.request('POST', '/users/logout', { headers: { cookie, 'x-csrf-token': s.csrfToken, origin: EVIL } }))
        .status,
    ).toBe(403);
    expect((await t.request('GET', '/users/me', { token: s.token })).body.user?.email).toBe('ed@example.com');
  });

  test('logout by cookie with the CSRF token from the own origin ends the session; by bearer it needs neither', async () => {
    const s = await t.login('ed@example.com', 'password123');
    expect((await t.request('POST', '/users/logout', { cookie: s })).status).toBe(200);
    expect((await t.request('GET', '/users/me', { token: s.token })).body.user).toBeNull();
    const b = await t.login('ed@example.com', 'password123');
    expect((await t.request('POST', '/users/logout', { token: b.token, headers: { origin: EVIL } })).status).toBe(200);
    expect((await t.request('GET', '/users/me', { token: b.token })).body.user).toBeNull();
  });
});
