/**
 * Kept session lookups (src/auth/session-cache.ts) never outlive what they rest on. Two instances share
 * one database: B has looked the session up and kept it; whatever A (another instance, as another
 * process would) does to the session or its user reaches B's very next request. Also the clock: an
 * expired session stops, and the once-a-minute `lastUsedAt` mark is still written.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sharedTestDatabase, startTestServer, tempDir, type Session, type TestServer } from './harness.ts';

const config = { auth: { roles: ['admin', 'editor'], tokenExpiration: 3600 } };
let shared: Awaited<ReturnType<typeof sharedTestDatabase>>;
let a: TestServer;
let b: TestServer;
let admin: Session;

beforeAll(async () => {
  const dir = tempDir();
  shared = await sharedTestDatabase(dir);
  a = await startTestServer({ ...config, database: shared.database }, { dir });
  b = await startTestServer({ ...config, database: shared.database }, { dir });
  admin = await a.user('admin');
});

afterAll(async () => {
  await a?.server.stop();
  await b?.server.stop();
  await shared?.drop();
});

const me = (t: TestServer, s: Session) => t.request('GET', '/users/me', { token: s.token }).then((r) => r.body.user);

describe('a kept session lookup', () => {
  test('is used again, and only while the counters say nothing changed', async () => {
    const editor = await a.user('editor');
    expect((await me(b, editor)).id).toBe(editor.user.id);
    // The session row goes without its trigger firing: only a kept lookup can still answer for it.
    const store = a.cms.store;
    const [off, on] = store.engine === 'sqlite'
      ? ['DROP TRIGGER "_cms_changes_sessions_delete"', `CREATE TRIGGER "_cms_changes_sessions_delete" AFTER DELETE ON "_cms_sessions" BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES ('_cms_sessions', 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END`]
      : ['ALTER TABLE "_cms_sessions" DISABLE TRIGGER "_cms_changes"', 'ALTER TABLE "_cms_sessions" ENABLE TRIGGER "_cms_changes"'];
    await store.exec(off);
    await store.run('DELETE FROM "_cms_sessions" WHERE "userId" = ?', [editor.user.id]);
    await store.exec(on);
    expect((await me(b, editor))?.id).toBe(editor.user.id);
    // Any counted change to the sessions (here another login) and the lookup is made again: gone.
    await a.login(admin.user.email as string, 'password123');
    expect(await me(b, editor)).toBe(null);
  });

  test('ends with a logout made on the other instance', async () => {
    const editor = await a.user('editor');
    expect((await me(b, editor))?.id).toBe(editor.user.id);
    expect((await a.request('POST', '/users/logout', { token: editor.token })).status).toBe(200);
    expect(await me(b, editor)).toBe(null);
  });

  test('sees a role change and a deactivation made on the other instance', async () => {
    const editor = await a.user('editor');
    expect((await me(b, editor)).role).toBe('editor');
    expect((await a.request('PATCH', `/users/${editor.user.id}`, { token: admin.token, body: { role: 'admin' } })).status).toBe(200);
    expect((await me(b, editor)).role).toBe('admin');
    expect((await a.request('PATCH', `/users/${editor.user.id}`, { token: admin.token, body: { active: false } })).status).toBe(200);
    expect(await me(b, editor)).toBe(null);
  });

  test('ends when the session expires by the clock', async () => {
    const editor = await a.user('editor');
    expect((await me(b, editor))?.id).toBe(editor.user.id);
    b.clock.advance(3601 * 1000);
    expect(await me(b, editor)).toBe(null);
    b.clock.advance(-3601 * 1000);
  });

  test('still marks the session used once a minute', async () => {
    const editor = await a.user('editor');
    const lastUsed = async () => Number((await b.cms.store.get<{ lastUsedAt: number }>('SELECT "lastUsedAt" FROM "_cms_sessions" WHERE "userId" = ?', [editor.user.id]))!.lastUsedAt);
    await me(b, editor);
    const first = await lastUsed();
    b.clock.advance(30_000);
    await me(b, editor);
    expect(await lastUsed()).toBe(first);
    b.clock.advance(61_000);
    await me(b, editor);
    expect(await lastUsed()).toBe(b.clock.now());
  });

});
