/**
 * Attack: guess one person's password with a burst of parallel logins, and lock other people out from a
 * shared address (docs/accounts.md). The lock reserves each attempt before scrypt runs, so
 * at most `maxLoginAttempts` checks happen per (email, IP) pair and window however many requests arrive
 * at once; failures also count per email across addresses, at 4× the limit.
 */
import { describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import { startChildServer } from '../support/child-server.ts';

const MAX = 5;
const VICTIM = 'victim@example.com';
const RIGHT = 'the-right-password';

const attempt = (t: TestServer, password: string, from?: string, email = VICTIM) =>
  t.request('POST', '/users/login', { body: { email, password }, headers: from ? { 'x-forwarded-for': from } : {} });

const failuresRecorded = async (t: TestServer, prefix: string) =>
  (await t.cms.store.get<{ n: number }>('SELECT count(*) AS n FROM _cms_login_attempts WHERE key LIKE ?', [
    `${prefix}%`,
  ]))!.n;

const statusCounts = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe('login lock under a burst of parallel guesses', () => {
  test('200 concurrent wrong passwords: exactly maxLoginAttempts are checked, the rest are 429, and the right password then is 429 too', async () => {
    const t = await startTestServer({ auth: { maxLoginAttempts: MAX, lockWindow: 900 } });
    await t.user('editor', VICTIM, RIGHT);
    const burst = await Promise.all(Array.from({ length: 200 }, (_, i) => attempt(t, `wrong-guess-${i}`)));
    expect(statusCounts(burst.map((r) => r.status))).toEqual({ 401: MAX, 429: 200 - MAX });
    for (const locked of burst.filter((r) => r.status === 429))
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await failuresRecorded(t, 'pair:')).toBe(MAX);
    expect(await failuresRecorded(t, 'email:')).toBe(MAX);
    const right = await attempt(t, RIGHT);
    expect(right.status).toBe(429);
    expect(right.headers.get('set-cookie')).toBeNull();
    await t.stop();
  }, 60_000);

  test('20 parallel logins with the right password all succeed: they wait for checks in progress instead of being refused', async () => {
    const t = await startTestServer({ auth: { maxLoginAttempts: MAX, lockWindow: 900 } });
    await t.user('editor', VICTIM, RIGHT);
    const logins = await Promise.all(Array.from({ length: 20 }, () => attempt(t, RIGHT)));
    expect(statusCounts(logins.map((r) => r.status))).toEqual({ 200: 20 });
    expect(await failuresRecorded(t, '')).toBe(0);
    await t.stop();
  }, 60_000);

  test('two processes on one database file share the reservation: still only maxLoginAttempts checks in all', async () => {
    const config = { auth: { maxLoginAttempts: MAX, lockWindow: 900 } };
    const first = await startChildServer(config);
    const second = await startChildServer(config, { dir: first.dir, register: false });
    try {
      const make = await fetch(`${first.api}/users`, {
        method: 'POST',
        headers: { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: VICTIM, password: RIGHT, role: 'editor' }),
      });
      expect(make.status).toBe(201);
      const login = (api: string, password: string) =>
        fetch(`${api}/users/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: VICTIM, password }),
        }).then((r) => r.status);
      const statuses = await Promise.all(
        Array.from({ length: 100 }, (_, i) => [
          login(first.api, `wrong-a-${i}`),
          login(second.api, `wrong-b-${i}`),
        ]).flat(),
      );
      expect(statusCounts(statuses)).toEqual({ 401: MAX, 429: 200 - MAX });
      expect(await login(second.api, RIGHT)).toBe(429);
      expect(await login(first.api, RIGHT)).toBe(429);
    } finally {
      await second.stop();
      await first.stop();
    }
  }, 90_000);
});

describe('lock keys: per email and IP, and per email across IPs (behind a trusted proxy)', () => {
  const config = { trustProxy: true, auth: { maxLoginAttempts: 3, lockWindow: 600 } };

  test('one address guessing locks that address out of that email only; the owner elsewhere still logs in', async () => {
    const t = await startTestServer(config);
    await t.user('editor', VICTIM, RIGHT);
    for (let i = 0; i < 3; i++) expect((await attempt(t, 'wrong-guess', '203.0.113.66')).status).toBe(401);
    expect((await attempt(t, RIGHT, '203.0.113.66')).status).toBe(429);
    expect((await attempt(t, RIGHT, '198.51.100.7')).status).toBe(200);
    await t.stop();
  });

  test('one client behind a shared address failing against many emails locks nobody else out', async () => {
    const t = await startTestServer(config);
    await t.user('editor', VICTIM, RIGHT);
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com']) {
      expect((await attempt(t, 'wrong-guess', '192.0.2.1', email)).status).toBe(401);
    }
    expect((await attempt(t, RIGHT, '192.0.2.1')).status).toBe(200);
    await t.stop();
  });

  test('many addresses together lock the email after 4× the limit, from every address, until the window passes', async () => {
    const t = await startTestServer(config);
    await t.user('editor', VICTIM, RIGHT);
    for (let ip = 1; ip <= 4; ip++) {
      for (let i = 0; i < 3; i++) expect((await attempt(t, 'wrong-guess', `203.0.113.${ip}`)).status).toBe(401);
    }
    const locked = await attempt(t, RIGHT, '198.51.100.200');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBe(600);
    t.clock.advance(600_001);
    expect((await attempt(t, RIGHT, '198.51.100.200')).status).toBe(200);
    await t.stop();
  });

  test('a successful login clears the failures of its keys', async () => {
    const t = await startTestServer(config);
    await t.user('editor', VICTIM, RIGHT);
    for (let i = 0; i < 2; i++) expect((await attempt(t, 'wrong-guess', '203.0.113.9')).status).toBe(401);
    expect((await attempt(t, RIGHT, '203.0.113.9')).status).toBe(200);
    expect(await failuresRecorded(t, '')).toBe(0);
    for (let i = 0; i < 3; i++) expect((await attempt(t, 'wrong-guess', '203.0.113.9')).status).toBe(401);
    expect((await attempt(t, RIGHT, '203.0.113.9')).status).toBe(429);
    await t.stop();
  });
});
