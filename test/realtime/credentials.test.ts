/**
 * A realtime stream acts with the rights its credentials give now, not those they gave when it opened
 * (docs/realtime.md, "When the caller's credentials change"): a demoted admin's stream loses the
 * admin-only fields, a stream whose API key was deleted, whose user was deactivated or whose session
 * expired or was logged out ends, on this instance or when another instance makes the change, and the
 * reconnect of a stream ended so is a 401. Runs on the engine of CMS_TEST_ENGINE.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sharedTestDatabase, startTestServer, tempDir, type TestServer } from '../harness.ts';
import { openSSE, type SSEClient } from '../support/sse-client.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config = (): UserConfig => ({
  auth: { roles: ['admin', 'editor'], tokenExpiration: 3600 },
  collections: [
    {
      slug: 'posts',
      access: { read: () => true, create: ({ user }) => Boolean(user) },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'secret', type: 'text', access: { read: ({ user }) => user?.role === 'admin' } },
      ],
    },
  ],
});

let t: TestServer;
let admin: { token: string; csrfToken: string; user: Record<string, any> };
const open: SSEClient[] = [];
const stream = async (headers: Record<string, string>, url = t.api) => {
  const client = await openSSE(`${url}/realtime?topics=posts`, headers);
  open.push(client);
  expect(client.status).toBe(200);
  return client;
};
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const write = async (title: string) => {
  const res = await t.request('POST', '/posts', { token: admin.token, body: { title, secret: 'only admins' } });
  expect(res.status).toBe(201);
};
/** Resolves true once the stream ended, false when `ms` passed first. */
const endsWithin = (client: SSEClient, ms: number) =>
  Promise.race([client.ended.then(() => true), Bun.sleep(ms).then(() => false)]);
const endEvent = (client: SSEClient) => client.events.find((e) => e.event === 'end');

beforeAll(async () => {
  t = await startTestServer(config());
  admin = await t.user('admin');
});
afterAll(async () => {
  for (const c of open) c.close();
  await t.stop();
});

describe('on this instance', () => {
  test('a demoted admin’s open stream no longer carries admin-only fields', async () => {
    const second = await t.user('admin');
    const s = await stream(bearer(second.token));
    await write('before');
    expect((await s.waitFor(1))[0].data.doc.secret).toBe('only admins');
    const demoted = await t.request('PATCH', `/users/${second.user.id}`, {
      token: admin.token,
      body: { role: 'editor' },
    });
    expect(demoted.status).toBe(200);
    // The demotion reaches the stream before the next change does.
    await write('after');
    const events = await s.waitFor(2);
    expect(events[1].data.doc.title).toBe('after');
    expect(events[1].data.doc).not.toHaveProperty('secret');
    // REST answers the same for the same credentials.
    const rest = await t.request('GET', `/posts/${events[1].data.id}`, { token: second.token });
    expect(rest.body).not.toHaveProperty('secret');
  });

  test("a deleted API key's stream ends", async () => {
    const made = await t.request('POST', '/api-keys', {
      token: admin.token,
      body: { name: 'k', user: admin.user.id, scopes: ['*'] },
    });
    expect(made.status).toBe(201);
    const s = await stream(bearer(made.body.doc.key));
    expect(await endsWithin(s, 200)).toBe(false);
    expect((await t.request('DELETE', `/api-keys/${made.body.doc.id}`, { token: admin.token })).status).toBe(200);
    expect(await endsWithin(s, 3000)).toBe(true);
    expect(endEvent(s)?.id).toEndWith('.ended');
  });

  test("a deactivated user's API key stream ends", async () => {
    const editor = await t.user('editor');
    const made = await t.request('POST', '/api-keys', {
      token: admin.token,
      body: { name: 'k', user: editor.user.id, scopes: ['*'] },
    });
    const s = await stream(bearer(made.body.doc.key));
    const off = await t.request('PATCH', `/users/${editor.user.id}`, { token: admin.token, body: { active: false } });
    expect(off.status).toBe(200);
    expect(await endsWithin(s, 3000)).toBe(true);
  });

  test("an expired session's stream ends when it expires (test clock)", async () => {
    const editor = await t.user('editor');
    const s = await stream(bearer(editor.token));
    t.clock.advance(1800_000);
    expect(await endsWithin(s, 1500)).toBe(false);
    t.clock.advance(1800_001);
    expect(await endsWithin(s, 3000)).toBe(true);
    expect((await t.request('GET', '/users/me', { token: editor.token })).body.user).toBeNull();
  });

  test('a cookie stream ends at logout, and its reconnect is a 401 until its client signs in again', async () => {
    const editor = await t.user('editor');
    const cookie = `cms-session=${editor.token}; cms-csrf=${editor.csrfToken}`;
    const s = await stream({ cookie });
    const out = await t.request('POST', '/users/logout', { cookie: editor });
    expect(out.status).toBe(200);
    expect(await endsWithin(s, 3000)).toBe(true);
    const last = endEvent(s)?.id;
    expect(last).toEndWith('.ended');
    // EventSource reconnects by itself with Last-Event-ID, and without the cookie the logout cleared.
    const reconnect = await openSSE(`${t.api}/realtime?topics=posts`, { 'last-event-id': last! });
    expect(reconnect.status).toBe(401);
    expect(reconnect.body.errors[0].message).toContain('sign in again');
    const stale = await openSSE(`${t.api}/realtime?topics=posts`, { 'last-event-id': last!, cookie });
    expect(stale.status).toBe(401);
    const again = await t.login(editor.user.email as string, 'password123');
    const resumed = await stream({ 'last-event-id': last!, ...bearer(again.token) });
    expect(resumed.status).toBe(200);
  });
});

test('changes made on another instance reach the streams of this one', async () => {
  const dir = tempDir();
  const db = await sharedTestDatabase(dir);
  const a = await startTestServer({ ...config(), database: db.database }, { dir });
  const b = await startTestServer({ ...config(), database: db.database }, { dir });
  try {
    const boss = await a.user('admin');
    const other = await a.user('admin');
    const key = await a.request('POST', '/api-keys', {
      token: boss.token,
      body: { name: 'k', user: boss.user.id, scopes: ['*'] },
    });
    const byKey = await stream(bearer(key.body.doc.key), a.api);
    const demotedStream = await stream(bearer(other.token), a.api);
    const bossOnB = await b.login(boss.user.email as string, 'password123');
    expect((await b.request('DELETE', `/api-keys/${key.body.doc.id}`, { token: bossOnB.token })).status).toBe(200);
    expect(
      (await b.request('PATCH', `/users/${other.user.id}`, { token: bossOnB.token, body: { role: 'editor' } })).status,
    ).toBe(200);
    expect(await endsWithin(byKey, 3000)).toBe(true);
    await b.request('POST', '/posts', { token: bossOnB.token, body: { title: 'from b', secret: 'only admins' } });
    const [event] = await demotedStream.waitFor(1);
    expect(event.data.doc.title).toBe('from b');
    expect(event.data.doc).not.toHaveProperty('secret');
  } finally {
    await b.stop();
    await a.stop();
    await db.drop();
  }
}, 60_000);
