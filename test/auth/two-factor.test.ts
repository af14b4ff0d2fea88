/**
 * Two-factor sign-in (docs/accounts.md): the generator against RFC 6238's vectors, and setup, enable, login
 * with a code, single use, the ±1 step window, recovery codes, the login lock, disable, an admin's reset
 * and `auth.requireTwoFactor`, with every code computed here by an independent implementation.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { runScenarios, startTestServer, type TestServer } from '../harness.ts';
import { hotp, base32Decode, base32Encode } from '../../src/auth/totp.ts';
import { fromBase32, referenceTOTP, RFC6238_KEYS, RFC6238_VECTORS } from '../support/totp-reference.ts';

describe('the generator', () => {
  test('the reference implementation gives RFC 6238 Appendix B', async () => {
    for (const [time, sha1, sha256, sha512] of RFC6238_VECTORS) {
      expect(await referenceTOTP(RFC6238_KEYS['SHA-1'], time, { digits: 8 })).toBe(sha1);
      expect(await referenceTOTP(RFC6238_KEYS['SHA-256'], time, { digits: 8, hash: 'SHA-256' })).toBe(sha256);
      expect(await referenceTOTP(RFC6238_KEYS['SHA-512'], time, { digits: 8, hash: 'SHA-512' })).toBe(sha512);
    }
  });
  test("the product's HOTP gives RFC 6238 Appendix B", () => {
    for (const [time, sha1, sha256, sha512] of RFC6238_VECTORS) {
      const step = Math.floor(time / 30);
      expect(hotp(Buffer.from(RFC6238_KEYS['SHA-1']), step, 8)).toBe(sha1);
      expect(hotp(Buffer.from(RFC6238_KEYS['SHA-256']), step, 8, 'sha256')).toBe(sha256);
      expect(hotp(Buffer.from(RFC6238_KEYS['SHA-512']), step, 8, 'sha512')).toBe(sha512);
    }
  });
  test('base32 round trip (RFC 4648 vector)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
  });
});

const STEP = 30_000;
/** The code the test's authenticator shows at the server's clock moved by `steps`. */
const codeAt = (t: TestServer, secret: string, steps = 0) =>
  referenceTOTP(fromBase32(secret), Math.floor((t.clock.now() + steps * STEP) / 1000));

async function enrol(t: TestServer, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await t.request('POST', '/users/totp/setup', { token });
  expect(setup.status).toBe(200);
  const { secret } = setup.body;
  const enabled = await t.request('POST', '/users/totp/enable', { token, body: { code: await codeAt(t, secret) } });
  expect(enabled.status).toBe(200);
  t.clock.advance(STEP); // the enabling code's step is spent
  return { secret, recoveryCodes: enabled.body.recoveryCodes };
}

// A member with two-factor on, made before any row runs: the admin's clear acts on them, not on a row's user.
let memberId = 0;
const seed = async (t: TestServer) => {
  const member = await t.user('editor', 'member@example.com');
  memberId = member.user.id as number;
  await enrol(t, member.token);
};

/** Signs in again as the editor the harness made for `as: 'editor'` (its password is the harness default). */
async function harnessEditor(t: TestServer): Promise<string> {
  const admin = await t.user('admin');
  const users = await t.request('GET', '/users?limit=100', { token: admin.token });
  const editor = users.body.docs.find((u: { email: string }) => u.email.startsWith('editor-'));
  return (await t.login(editor.email, 'password123')).token;
}

runScenarios(
  'two-factor routes',
  {},
  [
    {
      name: 'setup needs a user',
      method: 'POST',
      url: '/users/totp/setup',
      status: 401,
      contains: ['"errors"', 'You must be logged in'],
      events: { '*': 0 },
    },
    {
      name: 'the status says whether it is on',
      method: 'GET',
      url: '/users/totp',
      as: 'editor',
      status: 200,
      contains: ['{"enabled":false}'],
    },
    {
      name: "an editor cannot read another user's status",
      method: 'GET',
      url: '/users/totp?user=999',
      as: 'editor',
      status: 403,
      contains: ['"errors"', "Only admins can manage another user's account."],
      events: { '*': 0 },
    },
    {
      name: 'setup answers a secret and an otpauth URL',
      method: 'POST',
      url: '/users/totp/setup',
      as: 'editor',
      status: 200,
      events: { '*': 0 },
      contains: ['"secret":"', '"otpauthUrl":"otpauth://totp/CMS:editor-', 'issuer=CMS', 'period=30', 'digits=6'],
    },
    {
      name: 'setup is GET-less',
      method: 'GET',
      url: '/users/totp/setup',
      as: 'editor',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
      events: { '*': 0 },
    },
    {
      name: 'enable without setup is a 400',
      method: 'POST',
      url: '/users/totp/enable',
      as: 'admin',
      body: { code: '123456' },
      status: 400,
      contains: ['"errors"', 'Set up two-factor sign-in first'],
      events: { '*': 0 },
    },
    {
      name: 'enable with a wrong code is a 400 naming code',
      method: 'POST',
      url: '/users/totp/enable',
      as: 'editor',
      // Set up but not yet on, so the code is what is wrong (without a setup the answer says to set up first).
      setup: async (t) => {
        const token = await harnessEditor(t);
        expect((await t.request('POST', '/users/totp/setup', { token })).status).toBe(200);
      },
      body: { code: '000000' },
      status: 400,
      contains: ['"field":"code"', 'The code is not valid.'],
    },
    {
      name: 'disable needs a code or the password',
      method: 'POST',
      url: '/users/totp/disable',
      as: 'editor',
      body: {},
      status: 400,
      contains: ['"field":"code"', 'Send the current code or your password.'],
    },
    {
      name: 'a cookie session needs the CSRF token',
      method: 'POST',
      url: '/users/totp/setup',
      as: 'cookie:editor',
      headers: { 'x-csrf-token': 'wrong' },
      status: 403,
      contains: ['"errors"', 'Missing or invalid CSRF token.'],
      events: { '*': 0 },
    },
    {
      name: "an editor cannot clear another user's two-factor",
      method: 'POST',
      url: '/users/totp/disable?user=999',
      as: 'editor',
      status: 403,
      contains: ['"errors"', "Only admins can manage another user's account."],
      events: { '*': 0 },
    },
    {
      name: "an admin clears another user's two-factor",
      method: 'POST',
      url: () => `/users/totp/disable?user=${memberId}`,
      as: 'admin',
      status: 200,
      events: { '*': 0 },
      contains: ['"message":"Two-factor sign-in is off."'],
      check: async (_res, t) => {
        const { token } = await t.session('admin');
        expect((await t.request('GET', `/users/totp?user=${memberId}`, { token })).body).toEqual({ enabled: false });
      },
    },
    {
      name: 'an admin clearing an unknown user gets a 404',
      method: 'POST',
      url: '/users/totp/disable?user=999',
      as: 'admin',
      status: 404,
      contains: ['"errors"', 'User not found.'],
      events: { '*': 0 },
    },
  ],
  { seed },
);

describe('signing in with two factors', () => {
  let t: TestServer;
  let secret: string;
  let recoveryCodes: string[];
  const login = (body: Record<string, unknown>) =>
    t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'password123', ...body } });

  beforeAll(async () => {
    t = await startTestServer({ auth: { maxLoginAttempts: 4 } });
    await t.user('admin', 'admin@example.com', 'password123');
    const ed = await t.user('editor', 'ed@example.com', 'password123');
    ({ secret, recoveryCodes } = await enrol(t, ed.token));
  });
  afterAll(() => t.stop());

  test('ten distinct recovery codes; the secret is stored sealed', async () => {
    expect(recoveryCodes).toHaveLength(10);
    const status = await t.request('GET', '/users/totp?user=2', {
      token: (await t.login('admin@example.com', 'password123')).token,
    });
    expect(status.body).toEqual({ enabled: true });
    expect(new Set(recoveryCodes).size).toBe(10);
    const rows = await t.cms.store.all<{ secret: string }>('SELECT "secret" FROM "_cms_totp"');
    expect(rows.some((r) => r.secret.includes(secret))).toBe(false);
    const codes = await t.cms.store.all<{ codeHash: string }>('SELECT "codeHash" FROM "_cms_recovery_codes"');
    expect(codes.some((c) => recoveryCodes.some((r) => c.codeHash.includes(r.replace('-', ''))))).toBe(false);
  });

  test('a missing or wrong code is a 401 naming code', async () => {
    const missing = await login({});
    expect(missing.status).toBe(401);
    expect(missing.body.errors[0].field).toBe('code');
    const wrong = await login({ code: '000000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].field).toBe('code');
    // A wrong password still answers as before, without hinting at the second factor.
    const badPassword = await login({ password: 'nope-nope', code: await codeAt(t, secret) });
    expect(badPassword.status).toBe(401);
    expect(badPassword.body.errors[0].field).toBeUndefined();
  });

  test('the current code signs in once; its reuse is refused', async () => {
    const code = await codeAt(t, secret);
    const ok = await login({ code });
    expect(ok.status).toBe(200);
    expect(typeof ok.body.token).toBe('string');
    const again = await login({ code });
    expect(again.status).toBe(401);
    expect(again.body.errors[0].field).toBe('code');
  });

  test('±1 step is accepted, ±2 refused', async () => {
    t.clock.advance(10 * STEP);
    expect((await login({ code: await codeAt(t, secret, -2) })).status).toBe(401);
    expect((await login({ code: await codeAt(t, secret, 2) })).status).toBe(401);
    expect((await login({ code: await codeAt(t, secret, -1) })).status).toBe(200);
    t.clock.advance(10 * STEP);
    expect((await login({ code: await codeAt(t, secret, 1) })).status).toBe(200);
    // The step after it is taken, so the current and the previous code are not accepted any more.
    expect((await login({ code: await codeAt(t, secret, 0) })).status).toBe(401);
  });

  test('a recovery code signs in once, in any case and with or without its dash', async () => {
    t.clock.advance(15 * 60_000); // past the lock window of the failures above
    const code = recoveryCodes[0];
    expect((await login({ code: code.toUpperCase().replace('-', ' ') })).status).toBe(200);
    expect((await login({ code })).status).toBe(401);
    expect((await login({ code: recoveryCodes[1] })).status).toBe(200);
  });

  test('wrong codes count toward the login lock', async () => {
    t.clock.advance(15 * 60_000);
    for (let i = 0; i < 4; i++) expect((await login({ code: '000000' })).status).toBe(401);
    const locked = await login({ code: await codeAt(t, secret) });
    expect(locked.status).toBe(429);
    expect(locked.headers.get('retry-after')).toBeTruthy();
    t.clock.advance(15 * 60_000);
  });

  test('turning it off needs the password or a code; then the password alone signs in', async () => {
    const session = await login({ code: await codeAt(t, secret, 1) });
    const token = session.body.token;
    const wrong = await t.request('POST', '/users/totp/disable', { token, body: { password: 'not-my-password' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors[0].field).toBe('password');
    const off = await t.request('POST', '/users/totp/disable', { token, body: { password: 'password123' } });
    expect(off.status).toBe(200);
    expect((await login({})).status).toBe(200);
    expect(await t.cms.store.all('SELECT * FROM "_cms_recovery_codes"')).toEqual([]);
  });

  test("an admin's reset turns it off for a user who lost their device", async () => {
    const ed = await login({});
    await enrol(t, ed.body.token);
    expect((await login({})).status).toBe(401);
    const admin = await t.login('admin@example.com', 'password123');
    const res = await t.request('POST', `/users/totp/disable?user=${ed.body.user.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect((await login({})).status).toBe(200);
  });

  test('a password reset asks for the code too', async () => {
    const ed = await login({});
    const { secret: fresh } = await enrol(t, ed.body.token);
    const admin = await t.login('admin@example.com', 'password123');
    const link = await t.request('POST', `/users/${ed.body.user.id}/reset-link`, { token: admin.token });
    const token = new URL(link.body.url).searchParams.get('token');
    const without = await t.request('POST', '/users/reset-password', { body: { token, password: 'new-password-1' } });
    expect(without.status).toBe(401);
    expect(without.body.errors[0].field).toBe('code');
    const withCode = await t.request('POST', '/users/reset-password', {
      body: { token, password: 'new-password-1', code: await codeAt(t, fresh) },
    });
    expect(withCode.status).toBe(200);
  });
});

describe('auth.requireTwoFactor', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      auth: { requireTwoFactor: ['admin'] },
      collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text' }] }],
    });
    const { create } = await import('../../src/operations/create.ts');
    const { createContext } = await import('../../src/operation-context.ts');
    await create(createContext(t.cms, { overrideAccess: true }), {
      collection: 'users',
      data: { email: 'boss@example.com', password: 'password123', role: 'admin' },
    });
  });
  afterAll(() => t.stop());

  test('an admin without two factors may only enrol, then works as usual and needs a code from then on', async () => {
    const first = await t.request('POST', '/users/login', {
      body: { email: 'boss@example.com', password: 'password123' },
    });
    expect(first.status).toBe(200);
    expect(first.body.twoFactorSetupRequired).toBe(true);
    const token = first.body.token;
    expect((await t.request('GET', '/notes', { token })).status).toBe(403);
    expect((await t.request('POST', '/users', { token, body: { email: 'x@example.com' } })).status).toBe(403);
    const me = await t.request('GET', '/users/me', { token });
    expect(me.body.twoFactorSetupRequired).toBe(true);
    const { secret } = await enrol(t, token);
    expect((await t.request('GET', '/notes', { token })).status).toBe(200);
    expect(
      (await t.request('POST', '/users/login', { body: { email: 'boss@example.com', password: 'password123' } }))
        .status,
    ).toBe(401);
    const second = await t.request('POST', '/users/login', {
      body: { email: 'boss@example.com', password: 'password123', code: await codeAt(t, secret) },
    });
    expect(second.status).toBe(200);
    expect(second.body.twoFactorSetupRequired).toBeUndefined();
  });

  test('other roles are not asked', async () => {
    const ed = await t.user('editor');
    expect((await t.request('GET', '/notes', { token: ed.token })).status).toBe(200);
  });

  test('a role that is not configured is a config error', async () => {
    await expect(startTestServer({ auth: { requireTwoFactor: ['owner'] } })).rejects.toThrow(/requireTwoFactor/);
  });
});
