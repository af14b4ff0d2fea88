/**
 * Login lock: per (email, IP) pair and per email across IPs (docs/accounts.md), kept in the database, lifted by
 * time (test clock), 429 with Retry-After. The attacks on it are in test/security/login-lock-race.test.ts.
 */
import { describe, expect, test } from 'bun:test';
import { sharedTestDatabase, startTestServer, tempDir } from '../harness.ts';

const config = { auth: { maxLoginAttempts: 3, lockWindow: 600 } };

describe('login lock', () => {
  test('locks after maxLoginAttempts failures, even for the right password, and lifts by itself', async () => {
    const t = await startTestServer(config);
    await t.user('editor', 'ed@example.com', 'password123');
    for (let i = 0; i < 3; i++) {
      expect(
        (await t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'nope-nope' } })).status,
      ).toBe(401);
    }
    const locked = await t.request('POST', '/users/login', {
      body: { email: 'ed@example.com', password: 'password123' },
    });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(locked.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    expect(locked.body.errors[0].message).toBeString();
    t.clock.advance(599 * 1000);
    expect(
      (await t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'password123' } })).status,
    ).toBe(429);
    t.clock.advance(2 * 1000);
    expect(
      (await t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'password123' } })).status,
    ).toBe(200);
    await t.stop();
  });

  test('failures for other emails from the same IP do not lock this email', async () => {
    const t = await startTestServer(config);
    await t.user('editor', 'ed@example.com', 'password123');
    for (const email of ['x1@example.com', 'x2@example.com', 'x3@example.com']) {
      expect((await t.request('POST', '/users/login', { body: { email, password: 'nope-nope' } })).status).toBe(401);
    }
    expect(
      (await t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'password123' } })).status,
    ).toBe(200);
    await t.stop();
  });

  test('attempts survive a restart', async () => {
    const dir = tempDir();
    const shared = await sharedTestDatabase(dir);
    const first = await startTestServer({ ...config, database: shared.database }, { dir });
    await first.user('editor', 'ed@example.com', 'password123');
    for (let i = 0; i < 3; i++)
      await first.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'nope-nope' } });
    await first.server.stop();
    const second = await startTestServer({ ...config, database: shared.database }, { dir });
    expect(
      (await second.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'password123' } }))
        .status,
    ).toBe(429);
    await second.stop();
    await shared.drop();
  });

  test('a check left in progress by a crash counts as a failure once it is old, and never blocks forever', async () => {
    const t = await startTestServer(config);
    await t.user('editor', 'ed@example.com', 'password123');
    for (let i = 0; i < 2; i++)
      expect(
        (await t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'nope-nope' } })).status,
      ).toBe(401);
    // A reservation whose process died mid-check: the third of three.
    const now = t.clock.now();
    await t.cms.store.run('INSERT INTO "_cms_login_attempts" ("key", "at") VALUES (?, ?), (?, ?)', [
      'checking:pair:127.0.0.1/ed@example.com',
      now,
      'checking:email:ed@example.com',
      now,
    ]);
    t.clock.advance(31_000);
    const locked = await t.request('POST', '/users/login', {
      body: { email: 'ed@example.com', password: 'password123' },
    });
    expect(locked.status).toBe(429);
    await t.stop();
  });
});
