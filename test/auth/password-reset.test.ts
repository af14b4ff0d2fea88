/**
 * Forgot and reset password, invitations and admin-made reset links (docs/accounts.md), with the mails received
 * by a real SMTP server on loopback and every link followed over HTTP.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { runScenarios, startTestServer, type TestServer } from '../harness.ts';
import { linkIn, startSmtpSink, tokenOf, type SmtpSink } from '../support/smtp-sink.ts';
import { startChildServer, type ChildServer } from '../support/child-server.ts';

const HOUR = 3_600_000;
const FROM = 'Site <no-reply@site.test>';
let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.stop());

// A member made before any row runs: the reset-link rows ask for their link, not for a user a row made.
let memberId = 0;
const seed = async (t: TestServer) => {
  memberId = (await t.user('editor', 'member@example.com')).user.id as number;
};

runScenarios(
  'password routes',
  () => ({ email: { transport: sink.url, from: FROM } }),
  [
    {
      name: 'forgot-password needs an email',
      method: 'POST',
      url: '/users/forgot-password',
      body: {},
      status: 400,
      contains: ['"field":"email"', 'Email is required.'],
    },
    {
      name: 'forgot-password answers alike for an unknown email',
      method: 'POST',
      url: '/users/forgot-password',
      body: { email: 'nobody@example.com' },
      status: 200,
      events: { '*': 0 },
      contains: ['"message":"If this email belongs to an account, a link to reset its password is on its way."'],
    },
    {
      name: 'forgot-password is POST only',
      method: 'GET',
      url: '/users/forgot-password',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
      events: { '*': 0 },
    },
    {
      name: 'reset-password needs a token',
      method: 'POST',
      url: '/users/reset-password',
      body: { password: 'new-password-1' },
      status: 400,
      contains: ['"field":"token"', 'This link is not valid or has expired.'],
    },
    {
      name: 'an unknown token is a 400 naming token',
      method: 'POST',
      url: '/users/reset-password',
      body: { token: 'x'.repeat(43), password: 'new-password-1' },
      status: 400,
      contains: ['"field":"token"', 'This link is not valid or has expired.'],
    },
    {
      name: 'reset-password from a foreign page is refused',
      method: 'POST',
      url: '/users/reset-password',
      headers: { origin: 'https://evil.example' },
      body: { token: 'x', password: 'new-password-1' },
      status: 403,
      contains: ['"errors"', 'This origin is not allowed to log in.'],
      events: { '*': 0 },
    },
    {
      name: 'reset-link needs a user',
      method: 'POST',
      url: () => `/users/${memberId}/reset-link`,
      status: 401,
      contains: ['"errors"', 'You must be logged in'],
      events: { '*': 0 },
    },
    {
      name: 'reset-link is for admins',
      method: 'POST',
      url: () => `/users/${memberId}/reset-link`,
      as: 'editor',
      status: 403,
      contains: ['"errors"', 'Only admins can make reset links.'],
      events: { '*': 0 },
    },
    {
      name: 'reset-link for an unknown user is a 404',
      method: 'POST',
      url: '/users/999/reset-link',
      as: 'admin',
      status: 404,
      contains: ['"errors"', 'User not found.'],
      events: { '*': 0 },
    },
    {
      name: 'reset-link answers { url, expiresAt }',
      method: 'POST',
      url: () => `/users/${memberId}/reset-link`,
      as: 'admin',
      status: 200,
      events: { '*': 0 },
      contains: ['"url":"http://127.0.0.1:', '/admin/reset-password?token=', '"expiresAt":"2026-01-01T01:00:00.000Z"'],
    },
    {
      name: 'an admin invites a user by creating them without a password',
      method: 'POST',
      url: '/users',
      as: 'admin',
      body: { email: 'new@example.com', role: 'editor' },
      status: 201,
      events: { create: 1 },
      contains: ['"email":"new@example.com"', '"inviteUrl":"http://127.0.0.1:'],
      notContains: ['passwordHash'],
    },
    {
      name: 'editors cannot invite',
      method: 'POST',
      url: '/users',
      as: 'editor',
      body: { email: 'other@example.com' },
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'a user made with a password gets no invitation',
      method: 'POST',
      url: '/users',
      as: 'admin',
      body: { email: 'pw@example.com', password: 'password123' },
      status: 201,
      events: { create: 1 },
      contains: ['"email":"pw@example.com"'],
      notContains: ['inviteUrl'],
    },
    {
      name: 'first-register still needs a password',
      method: 'POST',
      url: '/users/first-register',
      body: { email: 'x@example.com' },
      status: 403,
      contains: ['"errors"', 'An admin already exists.'],
      events: { '*': 0 },
    },
  ],
  { seed },
);

describe('forgot and reset password by mail', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ email: { transport: sink.url, from: FROM }, auth: { maxLoginAttempts: 5 } });
    await t.user('admin', 'admin@example.com', 'password123');
    await t.user('editor', 'ed@example.com', 'password123');
  });
  afterAll(() => t.stop());

  async function askForLink(email: string): Promise<string> {
    const res = await t.request('POST', '/users/forgot-password', { body: { email } });
    expect(res.status).toBe(200);
    await t.cms.background.idle();
    return linkIn(await sink.next(email));
  }

  test('the mail carries a link to the admin reset page of the own origin', async () => {
    const res = await t.request('POST', '/users/forgot-password', { body: { email: 'ED@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    await t.cms.background.idle();
    const mail = await sink.next('ed@example.com');
    expect(mail.from).toContain('no-reply@site.test');
    expect(mail.subject).toContain('Reset');
    const link = linkIn(mail);
    expect(link.startsWith(`${t.url}/admin/reset-password?token=`)).toBe(true);
    expect(tokenOf(link).length).toBeGreaterThanOrEqual(43); // 256 bits, base64url
    expect(mail.html).toContain(link.replace(/&/g, '&amp;'));
    // Stored only hashed.
    const rows = await t.cms.store.all<{ tokenHash: string }>('SELECT "tokenHash" FROM "_cms_reset_tokens"');
    expect(rows.some((r) => r.tokenHash === tokenOf(link))).toBe(false);
  });

  test('a reset sets the password, ends every session, signs in, and the link works once', async () => {
    const before = await t.login('ed@example.com', 'password123');
    const link = await askForLink('ed@example.com');
    const res = await t.request('POST', '/users/reset-password', {
      body: { token: tokenOf(link), password: 'brand-new-pass' },
    });
    expect(res.status).toBe(200);
    const session = res.body.token;
    expect(res.body).toMatchObject({
      user: { email: 'ed@example.com' },
      token: expect.any(String),
      exp: expect.any(Number),
      csrfToken: expect.any(String),
    });
    expect(res.headers.getSetCookie().some((c) => c.startsWith('cms-session='))).toBe(true);
    expect((await t.request('GET', '/users/me', { token: before.token })).body.user).toBeNull();
    const me = await t.request('GET', '/users/me', { token: session });
    expect(me.body.user.email).toBe('ed@example.com');
    expect(
      (await t.request('POST', '/users/login', { body: { email: 'ed@example.com', password: 'password123' } })).status,
    ).toBe(401);
    await t.login('ed@example.com', 'brand-new-pass');
    const again = await t.request('POST', '/users/reset-password', {
      body: { token: tokenOf(link), password: 'another-pass-1' },
    });
    expect(again.status).toBe(400);
    expect(again.body.errors[0].field).toBe('token');
  });

  test('a short password is refused and leaves the link usable', async () => {
    const link = await askForLink('ed@example.com');
    const short = await t.request('POST', '/users/reset-password', {
      body: { token: tokenOf(link), password: 'short' },
    });
    expect(short.status).toBe(400);
    expect(short.body.errors[0].field).toBe('password');
    expect(
      (await t.request('POST', '/users/reset-password', { body: { token: tokenOf(link), password: 'password123' } }))
        .status,
    ).toBe(200);
  });

  test('a link expires after one hour (test clock)', async () => {
    const link = await askForLink('ed@example.com');
    t.clock.advance(HOUR + 1000);
    const res = await t.request('POST', '/users/reset-password', {
      body: { token: tokenOf(link), password: 'password123' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('token');
  });

  test('unknown and deactivated emails get no mail', async () => {
    const admin = await t.login('admin@example.com', 'password123');
    const gone = await t.request('POST', '/users', {
      token: admin.token,
      body: { email: 'gone@example.com', password: 'password123', active: false },
    });
    expect(gone.status).toBe(201);
    const count = sink.mails.length;
    for (const email of ['nobody@example.com', 'gone@example.com']) {
      expect((await t.request('POST', '/users/forgot-password', { body: { email } })).status).toBe(200);
    }
    await t.cms.background.idle();
    await Bun.sleep(100);
    expect(sink.mails.length).toBe(count);
  });

  test('forgot-password is throttled like login, apart from login itself', async () => {
    t.clock.advance(HOUR);
    const email = 'admin@example.com';
    for (let i = 0; i < 5; i++)
      expect((await t.request('POST', '/users/forgot-password', { body: { email } })).status).toBe(200);
    const locked = await t.request('POST', '/users/forgot-password', { body: { email } });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Asking for mails does not lock the account's logins.
    await t.login(email, 'password123');
    await t.cms.background.idle();
    t.clock.advance(HOUR);
  });
});

describe('invitations and admin reset links', () => {
  let t: TestServer;
  let admin: { token: string };
  beforeAll(async () => {
    t = await startTestServer({ serverURL: 'https://cms.example.com', email: { transport: sink.url, from: FROM } });
    admin = await t.user('admin', 'boss@example.com', 'password123');
  });
  afterAll(() => t.stop());

  test('an invitation is mailed, lasts 7 days, and lets the invitee choose a password and sign in', async () => {
    const res = await t.request('POST', '/users', {
      token: admin.token,
      body: { email: 'Invitee@Example.com', name: 'Ina' },
    });
    expect(res.status).toBe(201);
    const { inviteUrl } = res.body;
    expect(inviteUrl.startsWith('https://cms.example.com/admin/reset-password?token=')).toBe(true);
    expect(res.body.doc.inviteUrl).toBe(inviteUrl);
    await t.cms.background.idle();
    const mail = await sink.next('invitee@example.com');
    expect(mail.subject).toContain('invited');
    expect(linkIn(mail)).toBe(inviteUrl);
    // No password yet: nothing signs in.
    expect(
      (await t.request('POST', '/users/login', { body: { email: 'invitee@example.com', password: '' } })).status,
    ).toBe(400);
    t.clock.advance(6 * 24 * HOUR);
    const set = await t.request('POST', '/users/reset-password', {
      body: { token: tokenOf(inviteUrl), password: 'my-own-pass' },
    });
    expect(set.status).toBe(200);
    expect(set.body.user.email).toBe('invitee@example.com');
    await t.login('invitee@example.com', 'my-own-pass');
  });

  test('an invitation expires after 7 days', async () => {
    const res = await t.request('POST', '/users', { token: admin.token, body: { email: 'late@example.com' } });
    t.clock.advance(7 * 24 * HOUR + 1000);
    const set = await t.request('POST', '/users/reset-password', {
      body: { token: tokenOf(res.body.inviteUrl), password: 'my-own-pass' },
    });
    expect(set.status).toBe(400);
    expect(set.body.errors[0].field).toBe('token');
  });

  test('an admin-made link: 1 hour for a user with a password, 7 days while invited; not mailed', async () => {
    await t.cms.background.idle();
    const mails = sink.mails.length;
    admin = await t.login('boss@example.com', 'password123'); // the clock moved past the earlier session's end
    const user = await t.user('editor', 'has-pass@example.com', 'password123');
    const withPass = await t.request('POST', `/users/${user.user.id}/reset-link`, { token: admin.token });
    expect(withPass.status).toBe(200);
    expect(Date.parse(withPass.body.expiresAt) - t.clock.now()).toBe(HOUR);
    const invited = await t.request('POST', '/users', { token: admin.token, body: { email: 'again@example.com' } });
    const fresh = await t.request('POST', `/users/${invited.body.doc.id}/reset-link`, { token: admin.token });
    expect(Date.parse(fresh.body.expiresAt) - t.clock.now()).toBe(7 * 24 * HOUR);
    await t.cms.background.idle();
    expect(sink.mails.length).toBe(mails + 1); // the invitation only
    const set = await t.request('POST', '/users/reset-password', {
      body: { token: tokenOf(withPass.body.url), password: 'changed-pass' },
    });
    expect(set.status).toBe(200);
    // Spending one link spends the user's others.
    const older = await t.request('POST', `/users/${user.user.id}/reset-link`, { token: admin.token });
    await t.request('POST', '/users/reset-password', {
      body: { token: tokenOf(older.body.url), password: 'changed-pass-2' },
    });
    expect(
      (
        await t.request('POST', '/users/reset-password', {
          body: { token: tokenOf(withPass.body.url), password: 'x-changed-pass' },
        })
      ).status,
    ).toBe(400);
  });
});

describe('a mail that cannot be sent', () => {
  let t: TestServer;
  const logged: string[] = [];
  beforeAll(async () => {
    // Nothing listens on port 9 of loopback (discard): the connection is refused.
    t = await startTestServer({ email: { transport: 'smtp://127.0.0.1:9', from: FROM } });
    t.cms.log = { info() {}, warn() {}, error: (...a: unknown[]) => void logged.push(a.join(' ')) };
    await t.user('editor', 'ed@example.com', 'password123');
  });
  afterAll(() => t.stop());

  test('the requester gets the usual answer; the failure is logged and shown to admins in /health', async () => {
    const res = await t.request('POST', '/users/forgot-password', { body: { email: 'ed@example.com' } });
    expect(res.status).toBe(200);
    expect(res.text).not.toMatch(/ECONNREFUSED|smtp|error/i);
    await t.cms.background.idle();
    expect(logged.some((l) => l.includes('could not be sent'))).toBe(true);
    const admin = await t.user('admin');
    const health = await t.request('GET', '/health', { token: admin.token });
    expect(health.body.email.configured).toBe(true);
    expect(health.body.email.lastFailure).toMatchObject({
      subject: expect.stringContaining('Reset'),
      error: expect.any(String),
      at: expect.any(String),
    });
    const editor = await t.login('ed@example.com', 'password123');
    expect((await t.request('GET', '/health', { token: editor.token })).body.email).toBeUndefined();
  });
});

describe('no user enumeration by timing', () => {
  // The server runs in its own process, as a remote client sees it: in this process the work done after the
  // answer (lookup, token, mail) would share the event loop with the client that measures.
  let server: ChildServer;
  beforeAll(async () => {
    server = await startChildServer({ email: { transport: sink.url, from: FROM }, auth: { maxLoginAttempts: 1000 } });
  });
  afterAll(() => server.stop());

  test('forgot-password for an existing and an unknown email: medians within 5 ms (or half the answer time) over 30 tries', async () => {
    const time = async (email: string) => {
      const start = performance.now();
      const res = await fetch(`${server.api}/users/forgot-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      await res.text();
      const ms = performance.now() - start;
      expect(res.status).toBe(200);
      // What the answer left to do (for an existing email, the lookup, the token and the mail, which this
      // process receives and parses) is over before the next request is timed: it would slow that one.
      if (email === 'admin@example.com') await sink.next(email);
      return ms;
    };
    for (let i = 0; i < 6; i++) await time(i % 2 ? 'admin@example.com' : 'unknown@example.com'); // warm-up
    const known: number[] = [];
    const unknown: number[] = [];
    const differences: number[] = [];
    for (let i = 0; i < 30; i++) {
      // Each pair in turn order, and a pause after each request: what is timed is the answer, not work the
      // previous request left running on the same two cores.
      const pair: Record<string, number> = {};
      for (const email of i % 2
        ? ['admin@example.com', 'unknown@example.com']
        : ['unknown@example.com', 'admin@example.com']) {
        pair[email] = await time(email);
        await Bun.sleep(40);
      }
      known.push(pair['admin@example.com']!);
      unknown.push(pair['unknown@example.com']!);
      differences.push(pair['admin@example.com']! - pair['unknown@example.com']!);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    const [a, b] = [median(known), median(unknown)];
    // The answer does the same work either way (lookup and mail come after it). The two requests of a pair
    // run under the same load, so the median of their differences is what a lookup or a mail sent inline
    // would move; a busy machine (both engines' runs at once) moves both alike.
    expect(Math.abs(median(differences))).toBeLessThan(Math.max(5, 0.5 * Math.min(a, b)));
  }, 60_000);
});
