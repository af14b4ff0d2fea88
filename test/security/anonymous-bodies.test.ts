/**
 * Attack: flood the server with large anonymous JSON writes. Nothing large is read before the caller is
 * known (docs/request-bodies.md): 48 concurrent anonymous 16 MB posts are refused without being read and
 * leave the server (a separate `cms serve` process, measured through /proc) within 100 MB of idle. And
 * every refused sender sees its answer: the unread body is drained (up to a bound) before the connection
 * closes, so the close is not a reset that destroys the answer on its way.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import net from 'node:net';
import { peakRSS, startChildServer, type ChildServer } from '../support/child-server.ts';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import { sendLargeBody } from '../support/raw-http.ts';
import { JSON_BODY_BUDGET, MAX_JSON_BODY, jsonBodyBytesHeld } from '../../src/http/body.ts';

const MB = 1024 * 1024;
// The title may hold the 2 MB body of the admin's write below (text values stop at 64 KiB by default).
const posts = { slug: 'posts', fields: [{ name: 'title', type: 'text', maxLength: 4 * MB }] };

/** A JSON body of `size` bytes: `{"title":"xxxx…"}`. */
function bigJSON(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size).fill(0x78);
  const head = new TextEncoder().encode('{"title":"');
  bytes.set(head, 0);
  bytes.set(new TextEncoder().encode('"}'), size - 2);
  return bytes;
}

async function post(
  url: string,
  body: Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
): Promise<number | string> {
  try {
    const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('attack: 48 concurrent anonymous 16 MB JSON posts (child process)', () => {
  let server: ChildServer;
  beforeAll(async () => {
    server = await startChildServer({ collections: [posts] });
    // Warm up the paths the attack takes, so what follows measures growth, not first use.
    for (let i = 0; i < 3; i++) await post(`${server.api}/posts`, bigJSON(MB));
  });
  afterAll(async () => {
    await server?.stop();
  });

  test('every one is a 401 and the server stays within 100 MB of idle', async () => {
    Bun.gc(true);
    await Bun.sleep(200);
    const idle = server.rssMB();
    const body = bigJSON(16 * MB - 1);
    const { peak, result } = await peakRSS(server, () =>
      Promise.all(Array.from({ length: 48 }, () => post(`${server.api}/posts`, body))),
    );
    expect(result as unknown[]).toEqual(Array(48).fill(401));
    console.log(
      `anonymous flood: idle ${idle.toFixed(1)} MB, peak ${peak.toFixed(1)} MB (+${(peak - idle).toFixed(1)} MB)`,
    );
    expect(peak - idle).toBeLessThan(100);
  }, 60_000);

  test('the same body from the admin is read and stored (the limit is the body limit, not the refusal)', async () => {
    const status = await post(`${server.api}/posts`, bigJSON(2 * MB), { authorization: `Bearer ${server.token}` });
    expect(status).toBe(201);
  });
});

describe('attack: bodies the caller may not send, in process', () => {
  let t: TestServer;
  let admin: Session;
  beforeAll(async () => {
    t = await startTestServer({
      collections: [
        { slug: 'posts', fields: [{ name: 'title', type: 'text' }] },
        // A rule that reads the body: anonymous callers may file public comments only.
        {
          slug: 'comments',
          access: { create: ({ data }: any) => data?.kind === 'public' },
          fields: [{ name: 'kind', type: 'text' }],
        },
      ],
    });
    admin = await t.user('admin');
  });
  afterAll(async () => {
    await t?.stop();
  });

  test('an anonymous body over the JSON limit is a 401, not a 413: it was never read', async () => {
    const res = await t.request('POST', '/posts', {
      body: new Blob([bigJSON(20 * MB)]),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(401);
  });

  test('an API key outside its scopes is a 403 before its body is read', async () => {
    const key = await t.request('POST', '/api-keys', {
      token: admin.token,
      body: { name: 'ro', user: admin.user.id, scopes: ['posts:read'] },
    });
    const res = await t.request('POST', '/posts', {
      token: key.body.key,
      body: new Blob([bigJSON(20 * MB)]),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(403);
  });

  test('a rule that reads the data still decides with the data', async () => {
    expect((await t.request('POST', '/comments', { body: { kind: 'public' } })).status).toBe(201);
    expect((await t.request('POST', '/comments', { body: { kind: 'private' } })).status).toBe(401);
  });

  test('bodies held at once are bounded: past the budget a write is a 503 with Retry-After, and the budget comes back', async () => {
    const port = new URL(t.api).port;
    const held = Array.from({ length: JSON_BODY_BUDGET / MAX_JSON_BODY }, () =>
      net.connect(Number(port), '127.0.0.1', function (this: net.Socket) {
        this.write(
          `POST /api/cms/posts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${admin.token}\r\nContent-Type: application/json\r\nContent-Length: ${MAX_JSON_BODY}\r\n\r\n{"title":"`,
        );
      }),
    );
    for (let i = 0; i < 100 && jsonBodyBytesHeld() < JSON_BODY_BUDGET; i++) await Bun.sleep(10);
    expect(jsonBodyBytesHeld()).toBe(JSON_BODY_BUDGET);
    const refused = await t.request('POST', '/posts', { token: admin.token, body: { title: 'one more' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.body.errors[0].message).toContain('busy');
    for (const socket of held) socket.destroy();
    for (let i = 0; i < 100 && jsonBodyBytesHeld() > 0; i++) await Bun.sleep(10);
    expect(jsonBodyBytesHeld()).toBe(0);
    expect((await t.request('POST', '/posts', { token: admin.token, body: { title: 'one more' } })).status).toBe(201);
  });
});

describe('attack: large bodies refused early, each sender sees its answer (child process, raw sockets)', () => {
  const ATTEMPTS = 24;
  let server: ChildServer;
  let port = 0;
  beforeAll(async () => {
    server = await startChildServer({ collections: [posts] });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const all = (send: () => Promise<number | string>) => Promise.all(Array.from({ length: ATTEMPTS }, send));

  test(`${ATTEMPTS} anonymous 4 MB posts sent fast, the connection closing after the answer: ${ATTEMPTS} 401s`, async () => {
    const answers = await all(() =>
      sendLargeBody(port, { path: '/api/cms/posts', size: 4 * MB, headers: { connection: 'close' } }),
    );
    expect(answers).toEqual(Array(ATTEMPTS).fill(401));
  }, 60_000);

  test(`${ATTEMPTS} anonymous 16 MB posts sent fast on kept-alive connections: ${ATTEMPTS} 401s`, async () => {
    const answers = await all(() => sendLargeBody(port, { path: '/api/cms/posts', size: 16 * MB }));
    expect(answers).toEqual(Array(ATTEMPTS).fill(401));
  }, 60_000);

  test('anonymous 1 MB posts sent slowly, in 32 KB pieces: every one a 401', async () => {
    const answers = await all(() =>
      sendLargeBody(port, {
        path: '/api/cms/posts',
        size: MB,
        chunk: 32 * 1024,
        delayMs: 5,
        headers: { connection: 'close' },
      }),
    );
    expect(answers).toEqual(Array(ATTEMPTS).fill(401));
  }, 60_000);

  test(`${ATTEMPTS} signed-in posts declaring more than the JSON limit: ${ATTEMPTS} 413s`, async () => {
    const answers = await all(() =>
      sendLargeBody(port, {
        path: '/api/cms/posts',
        size: MAX_JSON_BODY + MB,
        headers: { connection: 'close', authorization: `Bearer ${server.token}` },
      }),
    );
    expect(answers).toEqual(Array(ATTEMPTS).fill(413));
  }, 60_000);
});
