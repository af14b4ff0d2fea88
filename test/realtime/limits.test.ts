/**
 * What keeps a realtime stream from outliving its welcome (docs/realtime.md): a client that stops reading
 * is cut off once its queue passes `realtime.maxBufferBytes`, and a stream ends when the session it was
 * opened with ends (logout, the session removed from another device), while other streams go on.
 * Runs on the engine of CMS_TEST_ENGINE.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type net from 'node:net';
import { startTestServer, type TestServer } from '../harness.ts';
import { openSSE, openStalledStream, type SSEClient } from '../support/sse-client.ts';
import { hubOf } from '../../src/realtime/hub.ts';

let t: TestServer;
let admin: { token: string };
const open: SSEClient[] = [];
const sockets: net.Socket[] = [];

beforeAll(async () => {
  t = await startTestServer({
    realtime: { maxBufferBytes: 64_000 },
    collections: [
      {
        slug: 'posts',
        fields: [
          { name: 'title', type: 'text' },
          { name: 'body', type: 'textarea' },
        ],
      },
    ],
  });
  admin = await t.user('admin');
});
afterAll(async () => {
  for (const c of open) c.close();
  for (const s of sockets) s.destroy();
  await t.stop();
});

const subscribe = async (headers: Record<string, string> = {}) => {
  const client = await openSSE(`${t.api}/realtime?topics=posts`, headers);
  open.push(client);
  expect(client.status).toBe(200);
  return client;
};

async function until(check: () => boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await Bun.sleep(20);
  }
}

test('a subscriber that never reads is closed once its buffer limit is passed; one that reads is not', async () => {
  const hub = hubOf(t.cms);
  const reader = await subscribe({ authorization: `Bearer ${admin.token}` });
  // A client that never reads: what the server sends fills the kernel's buffers first, then the server's.
  const slow = await openStalledStream(
    t.url,
    '/api/cms/realtime?topics=posts',
    `authorization: Bearer ${admin.token}\r\n`,
  );
  sockets.push(slow.socket);
  await until(() => hub.size === 2, 3000, "the raw client's stream to open");

  const body = 'x'.repeat(200_000);
  let written = 0;
  // Each event carries the 200 kB document: well past the 64 kB limit once the socket buffers are full.
  while (hub.size === 2 && written < 100) {
    await t.request('POST', '/posts', { token: admin.token, body: { title: `big ${written}`, body } });
    written++;
    await Bun.sleep(5);
  }
  await until(() => hub.size === 1, 3000, 'the slow stream to be closed');
  // Its connection is cut, not left open with what it did not read.
  await until(slow.ended, 3000, 'the slow connection to be cut');
  expect(written).toBeLessThan(100);
  // The reader got every event and is still open.
  await reader.waitFor(written, 10_000);
  expect(hub.size).toBe(1);
}, 60_000);

test("a stream ends when its session ends; other sessions' and API keys' streams go on", async () => {
  const session = await t.user('editor', 'ed@example.com', 'a long password 1');
  const doomed = await subscribe({ authorization: `Bearer ${session.token}` });
  const other = await subscribe({ authorization: `Bearer ${admin.token}` });
  let ended = false;
  void doomed.ended.then(() => (ended = true));
  await Bun.sleep(100);
  expect(ended).toBe(false);

  const out = await t.request('POST', '/users/logout', { token: session.token });
  expect(out.status).toBe(200);
  await until(() => ended, 3000, 'the logged-out stream to end');

  const write = await t.request('POST', '/posts', { token: admin.token, body: { title: 'after logout' } });
  expect(write.status).toBe(201);
  const seen = await other.waitFor(1);
  expect(seen.at(-1)!.data.doc.title).toBe('after logout');
});

test('ending a session from another device ends its stream too', async () => {
  const phone = await t.login('ed@example.com', 'a long password 1');
  const laptop = await t.login('ed@example.com', 'a long password 1');
  const stream = await subscribe({ authorization: `Bearer ${phone.token}` });
  let ended = false;
  void stream.ended.then(() => (ended = true));
  const sessions = await t.request('GET', '/users/sessions', { token: laptop.token });
  // Every session but the laptop's (the phone's among them) ends.
  const others = sessions.body.docs.filter((x: { current: boolean }) => !x.current);
  expect(others.length).toBeGreaterThan(0);
  for (const s of others)
    expect((await t.request('DELETE', `/users/sessions/${s.id}`, { token: laptop.token })).status).toBe(200);
  await until(() => ended, 3000, "the ended session's stream to end");
});

test('a write the client leaves waiting longer than writeTimeout cuts its connection (test clock)', async () => {
  const s = await startTestServer({
    realtime: { maxBufferBytes: 100_000_000, writeTimeout: 10_000 },
    collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'body', type: 'textarea' }] }],
  });
  try {
    const editor = await s.user('admin');
    const client = await openStalledStream(s.url, '/api/cms/realtime?topics=posts');
    sockets.push(client.socket);
    await until(() => hubOf(s.cms).size === 1, 3000, 'the stream to open');
    // ~12 MB: more than the kernel's socket buffers take, far less than the buffer bound.
    const body = 'y'.repeat(400_000);
    for (let i = 0; i < 30; i++) await s.request('POST', '/posts', { token: editor.token, body: { body } });
    await Bun.sleep(1000);
    expect(client.ended()).toBe(false);
    expect(hubOf(s.cms).size).toBe(1);
    s.clock.advance(10_001);
    await until(client.ended, 4000, 'the waiting connection to be cut');
    expect(hubOf(s.cms).size).toBe(0);
  } finally {
    await s.stop();
  }
}, 60_000);

describe('streams per client', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      trustProxy: true,
      realtime: {
        maxConnections: 12,
        maxAnonymousConnections: 7,
        maxConnectionsPerAddress: 3,
        maxConnectionsPerUser: 2,
      },
      collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }],
    });
  });
  afterAll(async () => {
    await s.stop();
  });
  const from = async (address: string, headers: Record<string, string> = {}) => {
    const client = await openSSE(`${s.api}/realtime?topics=posts`, { 'x-forwarded-for': address, ...headers });
    open.push(client);
    return client;
  };

  test('one address gets its share of anonymous streams, then a 429; an admin from it still gets in', async () => {
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).status).toBe(200);
    const refused = await from('203.0.113.7');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.body.errors[0].message).toContain('from this address: at most 3');
    const boss = await s.user('admin');
    expect((await from('203.0.113.7', { authorization: `Bearer ${boss.token}` })).status).toBe(200);
    expect((await from('203.0.113.8')).status).toBe(200);
  });

  test('an IPv6 network counts as one address', async () => {
    for (let i = 0; i < 3; i++) expect((await from(`2001:db8:5:6::${i + 1}`)).status).toBe(200);
    const refused = await from('2001:db8:5:6:ffff::9');
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].message).toContain('from this address');
  });

  test('anonymous streams stop at their share; signed-in users still get in, each up to its own bound', async () => {
    // 3 + 1 + 3 anonymous streams so far, the whole share: one more from any new address is refused.
    const refused = await from('198.51.100.1');
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].message).toContain('without sign-in');
    const editor = await s.user('editor');
    const headers = { authorization: `Bearer ${editor.token}` };
    expect((await from('198.51.100.1', headers)).status).toBe(200);
    expect((await from('198.51.100.2', headers)).status).toBe(200);
    const third = await from('198.51.100.3', headers);
    expect(third.status).toBe(429);
    expect(third.body.errors[0].message).toContain('for this user: at most 2');
  });

  test('a closed stream gives its place back', async () => {
    const mine = open.filter((c) => c.status === 200);
    for (const c of mine) c.close();
    await until(() => hubOf(s.cms).size === 0, 3000, 'the streams to close');
    for (let i = 0; i < 3; i++) expect((await from('203.0.113.7')).status).toBe(200);
  });
});
