/**
 * Links in mails never take their origin from request headers: a forgot-password request sent with a
 * foreign Host must not mail the victim a working link to that host (docs/accounts.md, "Links in mails").
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sanitizeConfig } from '../../src/config/sanitize.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { rawJSON } from '../support/raw-http.ts';
import { linkIn, startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

const FROM = 'Site <no-reply@site.test>';
let sink: SmtpSink;
beforeAll(async () => (sink = await startSmtpSink()));
afterAll(() => sink.stop());

const portOf = (t: TestServer) => Number(new URL(t.url).port);

async function forgot(t: TestServer, host: string, email: string, headers: Record<string, string> = {}) {
  const res = await rawJSON(
    portOf(t),
    'POST',
    `${new URL(t.api).pathname}/users/forgot-password`,
    host,
    { email },
    headers,
  );
  expect(res.status).toBe(200);
  await t.cms.background.idle();
}

const mailsTo = (to: string) => sink.mails.filter((m) => m.to.includes(to));

describe('without serverURL or allowed hosts', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ email: { transport: sink.url, from: FROM }, trustProxy: true });
    await t.user('editor', 'victim@example.com', 'password123');
  });
  afterAll(() => t.stop());

  test('a foreign Host gets the victim no mail at all', async () => {
    await forgot(t, 'evil.example', 'victim@example.com');
    await forgot(t, 'evil.example:8080', 'victim@example.com');
    await Bun.sleep(200);
    expect(mailsTo('victim@example.com')).toHaveLength(0);
  });

  test('nor does a forwarded host from a trusted proxy', async () => {
    await forgot(t, `127.0.0.1:${portOf(t)}`, 'victim@example.com', { 'X-Forwarded-Host': 'evil.example' });
    await Bun.sleep(200);
    expect(mailsTo('victim@example.com')).toHaveLength(0);
  });

  test('a loopback Host still gets a link to itself', async () => {
    await forgot(t, `127.0.0.1:${portOf(t)}`, 'victim@example.com');
    expect(linkIn(await sink.next('victim@example.com')).startsWith(`${t.url}/admin/reset-password?token=`)).toBe(true);
  });
});

describe('with email.allowedHosts', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ email: { transport: sink.url, from: FROM, allowedHosts: ['cms.example.com'] } });
    await t.user('admin', 'boss@example.com', 'password123');
    await t.user('editor', 'listed@example.com', 'password123');
  });
  afterAll(() => t.stop());

  test('a listed host is used, any other gets no mail', async () => {
    await forgot(t, 'evil.example', 'listed@example.com');
    await Bun.sleep(200);
    expect(mailsTo('listed@example.com')).toHaveLength(0);
    await forgot(t, 'cms.example.com', 'listed@example.com');
    expect(
      linkIn(await sink.next('listed@example.com')).startsWith('http://cms.example.com/admin/reset-password?token='),
    ).toBe(true);
  });

  test('an invitation asked for through a foreign Host is not mailed there', async () => {
    const admin = await t.login('boss@example.com', 'password123');
    const res = await rawJSON(
      portOf(t),
      'POST',
      `${new URL(t.api).pathname}/users`,
      'evil.example',
      { email: 'invitee@example.com' },
      { Authorization: `Bearer ${admin.token}` },
    );
    expect(res.status).toBe(201);
    await t.cms.background.idle();
    await Bun.sleep(200);
    expect(mailsTo('invitee@example.com')).toHaveLength(0);
  });
});

describe('with serverURL', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ serverURL: 'https://cms.example.org', email: { transport: sink.url, from: FROM } });
    await t.user('editor', 'served@example.com', 'password123');
  });
  afterAll(() => t.stop());

  test('the link is on serverURL whatever the Host says', async () => {
    await forgot(t, 'evil.example', 'served@example.com');
    expect(
      linkIn(await sink.next('served@example.com')).startsWith('https://cms.example.org/admin/reset-password?token='),
    ).toBe(true);
  });
});

test('email.allowedHosts takes hosts only', () => {
  expect(() =>
    sanitizeConfig(
      { email: { transport: 'smtp://127.0.0.1:25', allowedHosts: ['https://evil.example/'] } },
      { configPath: '/x/cms.config.ts', rootDir: '/x' },
    ),
  ).toThrow(/email\.allowedHosts/);
});
