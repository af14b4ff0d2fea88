// Runs once (on the SQLite pass): always on PostgreSQL.
/**
 * Accounts on PostgreSQL: the same flows as the SQLite tests through the real server on a fresh database
 * (reset links, two-factor codes spent once, recovery codes, sessions and their last use), so the SQL of
 * src/auth/ is proven on both engines. Needs CMS_TEST_POSTGRES_URL (test/support/postgres.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';
import { linkIn, startSmtpSink, tokenOf, type SmtpSink } from '../support/smtp-sink.ts';
import { fromBase32, referenceTOTP } from '../support/totp-reference.ts';

describe('accounts on PostgreSQL', () => {
  let db: TestDatabase;
  let sink: SmtpSink;
  let t: TestServer;
  beforeAll(async () => {
    db = await createTestDatabase();
    sink = await startSmtpSink();
    t = await startTestServer({ database: db.url, email: { transport: sink.url, from: 'cms@site.test' } });
    await t.user('admin', 'admin@example.com', 'password123');
    await t.user('editor', 'ed@example.com', 'password123');
  });
  afterAll(async () => {
    await t?.stop();
    await sink?.stop();
    await db?.drop();
  });

  test('forgot → mail → reset, once', async () => {
    expect((await t.request('POST', '/users/forgot-password', { body: { email: 'ed@example.com' } })).status).toBe(200);
    await t.cms.background.idle();
    const token = tokenOf(linkIn(await sink.next('ed@example.com')));
    const reset = await t.request('POST', '/users/reset-password', { body: { token, password: 'new-password-1' } });
    expect(reset.status).toBe(200);
    expect(
      (await t.request('POST', '/users/reset-password', { body: { token, password: 'new-password-2' } })).status,
    ).toBe(400);
    await t.login('ed@example.com', 'new-password-1');
  });

  test('an invitation and an admin-made link', async () => {
    const admin = await t.login('admin@example.com', 'password123');
    const invited = await t.request('POST', '/users', { token: admin.token, body: { email: 'new@example.com' } });
    expect(invited.status).toBe(201);
    const link = await t.request('POST', `/users/${invited.body.doc.id}/reset-link`, { token: admin.token });
    expect(Date.parse(link.body.expiresAt) - t.clock.now()).toBe(7 * 24 * 3_600_000);
    expect(
      (
        await t.request('POST', '/users/reset-password', {
          body: { token: tokenOf(invited.body.inviteUrl), password: 'chosen-pass' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await t.request('POST', '/users/reset-password', {
          body: { token: tokenOf(link.body.url), password: 'chosen-pass' },
        })
      ).status,
    ).toBe(400);
  });

  test('two-factor: enable, a code once, a recovery code once, disable', async () => {
    const ed = await t.login('ed@example.com', 'new-password-1');
    const { secret } = (await t.request('POST', '/users/totp/setup', { token: ed.token })).body;
    const code = (steps = 0) => referenceTOTP(fromBase32(secret), Math.floor((t.clock.now() + steps * 30_000) / 1000));
    const enabled = await t.request('POST', '/users/totp/enable', { token: ed.token, body: { code: await code() } });
    expect(enabled.status).toBe(200);
    const login = (c?: string) =>
      t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'new-password-1', code: c } });
    expect((await login(await code())).status).toBe(401); // the enabling code's step is spent
    expect((await login(await code(1))).status).toBe(200);
    expect((await login(await code(1))).status).toBe(401);
    expect((await login(enabled.body.recoveryCodes[0])).status).toBe(200);
    expect((await login(enabled.body.recoveryCodes[0])).status).toBe(401);
    expect(
      (await t.request('POST', '/users/totp/disable', { token: ed.token, body: { password: 'new-password-1' } }))
        .status,
    ).toBe(200);
    expect((await login()).status).toBe(200);
  });

  test('sessions: list, last use once a minute, end one, end the others', async () => {
    const a = (
      await t.request('POST', '/users/login', {
        body: { email: 'admin@example.com', password: 'password123' },
        headers: { 'user-agent': 'A/1' },
      })
    ).body.token;
    const b = (
      await t.request('POST', '/users/login', {
        body: { email: 'admin@example.com', password: 'password123' },
        headers: { 'user-agent': 'B/1' },
      })
    ).body.token;
    const list = async () =>
      (await t.request('GET', '/users/sessions', { token: a })).body.docs as Record<string, any>[];
    const mine = (await list()).find((s) => s.current)!;
    expect(mine).toMatchObject({ userAgent: 'A/1', ip: '127.0.0.1' });
    t.clock.advance(61_000);
    expect((await list()).find((s) => s.current)!.lastUsedAt).toBe(new Date(t.clock.now()).toISOString());
    const other = (await list()).find((s) => s.userAgent === 'B/1')!;
    expect((await t.request('DELETE', `/users/sessions/${other.id}`, { token: a })).status).toBe(200);
    expect((await t.request('GET', '/users/me', { token: b })).body.user).toBeNull();
    expect((await t.request('DELETE', '/users/sessions', { token: a })).status).toBe(200);
    expect((await list()).map((s) => s.current)).toEqual([true]);
  });
});
