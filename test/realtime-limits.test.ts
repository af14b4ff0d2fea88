/**
 * What keeps a realtime stream from outliving its welcome (docs/realtime.md): a client that stops reading
 * is cut off once its queue passes `realtime.maxBufferBytes`, and a stream ends when the session it was
 * opened with ends (logout, the session removed from another device), while other streams go on.
 * Runs on the engine of CMS_TEST_ENGINE.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import net from 'node:net';
import { startTestServer, type TestServer } from './harness.ts';
import { openSSE, type SSEClient } from './support/sse-client.ts';
import { hubOf } from '../src/realtime/hub.ts';

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
  const { port } = new URL(t.url);
  // A raw client that sends its request and then never reads a byte: what the server sends fills the
  // kernel's buffers first, then the stream's own queue.
  const slow = net.connect({ host: '127.0.0.1', port: Number(port) });
  sockets.push(slow);
  await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
  slow.pause();
  slow.write(
    `GET /api/cms/realtime?topics=posts HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\naccept: text/event-stream\r\nauthorization: Bearer ${admin.token}\r\n\r\n`,
  );
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
