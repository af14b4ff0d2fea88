/**
 * Kept session and API-key lookups (src/auth/kept-credentials.ts) never outlive what they rest on. Two instances share
 * one database: B has looked the session up and kept it; whatever A (another instance, as another
 * process would) does to the session or its user reaches B's very next request. Also the clock: an
 * expired session stops, and the once-a-minute `lastUsedAt` mark is still written (and, not being a
 * counted change, leaves the other sessions' lookups kept).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sharedTestDatabase, startTestServer, tempDir, type Session, type TestServer } from '../harness.ts';

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

/** Runs `work` with the delete trigger that counts changes of `table` off (SQLite: dropped and made again). */
async function withoutDeleteTrigger(
  t: TestServer,
  table: string,
  name: string,
  work: () => Promise<unknown>,
): Promise<void> {
  const store = t.cms.store;
  const [off, on] =
    store.engine === 'sqlite'
      ? [
          `DROP TRIGGER "_cms_changes_${name}_delete"`,
          `CREATE TRIGGER "_cms_changes_${name}_delete" AFTER DELETE ON "${table}" BEGIN
  INSERT INTO "_cms_changes" ("name", "version") VALUES ('${table}', 1) ON CONFLICT ("name") DO UPDATE SET "version" = "version" + 1;
END`,
        ]
      : // A system table's one trigger counts every statement; a config table's delete trigger counts its rows.
        [`DISABLE`, `ENABLE`].map(
          (verb) =>
            `ALTER TABLE "${table}" ${verb} TRIGGER "${table.startsWith('_cms_') ? '_cms_changes' : '_cms_rows_delete'}"`,
        );
  await store.exec(off);
  await work();
  await store.exec(on);
}

const me = (t: TestServer, s: Session) => t.request('GET', '/users/me', { token: s.token }).then((r) => r.body.user);

describe('a kept session lookup', () => {
  test('is used again, and only while the counters say nothing changed', async () => {
    const editor = await a.user('editor');
    expect((await me(b, editor)).id).toBe(editor.user.id);
    // The session row goes without its trigger firing: only a kept lookup can still answer for it.
    await withoutDeleteTrigger(a, '_cms_sessions', 'sessions', () =>
      a.cms.store.run('DELETE FROM "_cms_sessions" WHERE "userId" = ?', [editor.user.id]),
    );
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
    expect(
      (await a.request('PATCH', `/users/${editor.user.id}`, { token: admin.token, body: { role: 'admin' } })).status,
    ).toBe(200);
    expect((await me(b, editor)).role).toBe('admin');
    expect(
      (await a.request('PATCH', `/users/${editor.user.id}`, { token: admin.token, body: { active: false } })).status,
    ).toBe(200);
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
    const lastUsed = async () =>
      Number(
        (await b.cms.store.get<{ lastUsedAt: number }>('SELECT "lastUsedAt" FROM "_cms_sessions" WHERE "userId" = ?', [
          editor.user.id,
        ]))!.lastUsedAt,
      );
    await me(b, editor);
    const first = await lastUsed();
    b.clock.advance(30_000);
    await me(b, editor);
    expect(await lastUsed()).toBe(first);
    b.clock.advance(61_000);
    await me(b, editor);
    expect(await lastUsed()).toBe(b.clock.now());
  });

  test("is not dropped by another session's lastUsedAt mark, and is by its refresh", async () => {
    const editor = await a.user('editor');
    const other = await a.user('editor');
    expect((await me(b, editor))?.id).toBe(editor.user.id);
    await withoutDeleteTrigger(a, '_cms_sessions', 'sessions', () =>
      a.cms.store.run('DELETE FROM "_cms_sessions" WHERE "userId" = ?', [editor.user.id]),
    );
    // The other session's mark falls due on A and is written: not a counted change (system migration 0006).
    a.clock.advance(61_000);
    expect((await me(a, other))?.id).toBe(other.user.id);
    const marked = await a.cms.store.get<{ lastUsedAt: number }>(
      'SELECT "lastUsedAt" FROM "_cms_sessions" WHERE "userId" = ?',
      [other.user.id],
    );
    expect(Number(marked!.lastUsedAt)).toBe(a.clock.now());
    a.clock.advance(-61_000);
    expect((await me(b, editor))?.id).toBe(editor.user.id);
    // Its new expiry is a counted change: the lookup is made again, and the deleted session is gone.
    expect((await a.request('POST', '/users/refresh-token', { token: other.token })).status).toBe(200);
    expect(await me(b, editor)).toBe(null);
  });
});

describe('a kept API key lookup', () => {
  const makeKey = async (user: Session, expiresAt?: string) => {
    const res = await a.request('POST', '/api-keys', {
      token: admin.token,
      body: { name: 'script', user: user.user.id, scopes: ['*'], expiresAt },
    });
    expect(res.status).toBe(201);
    return { id: res.body.doc.id as number, key: res.body.key as string };
  };
  const meByKey = (t: TestServer, key: string) => t.request('GET', '/users/me', { token: key });

  test('is used again, and only while the counters say nothing changed', async () => {
    const editor = await a.user('editor');
    const { id, key } = await makeKey(editor);
    expect((await meByKey(b, key)).body.user.id).toBe(editor.user.id);
    await withoutDeleteTrigger(a, 'api-keys', 'api-keys', () =>
      a.cms.store.run('DELETE FROM "api-keys" WHERE "id" = ?', [id]),
    );
    expect((await meByKey(b, key)).body.user.id).toBe(editor.user.id);
    await makeKey(editor);
    expect((await meByKey(b, key)).status).toBe(401);
  });

  test('ends when the key is deleted, or its user deactivated, on the other instance', async () => {
    const editor = await a.user('editor');
    const first = await makeKey(editor);
    const second = await makeKey(editor);
    expect((await meByKey(b, first.key)).status).toBe(200);
    expect((await meByKey(b, second.key)).status).toBe(200);
    expect((await a.request('DELETE', `/api-keys/${first.id}`, { token: admin.token })).status).toBe(200);
    expect((await meByKey(b, first.key)).status).toBe(401);
    expect((await meByKey(b, second.key)).status).toBe(200);
    expect(
      (await a.request('PATCH', `/users/${editor.user.id}`, { token: admin.token, body: { active: false } })).status,
    ).toBe(200);
    expect((await meByKey(b, second.key)).status).toBe(401);
  });

  test('ends when the key expires by the clock', async () => {
    const editor = await a.user('editor');
    const { key } = await makeKey(editor, new Date(b.clock.now() + 3_600_000).toISOString());
    expect((await meByKey(b, key)).status).toBe(200);
    b.clock.advance(3_601_000);
    expect((await meByKey(b, key)).status).toBe(401);
    b.clock.advance(-3_601_000);
  });
});
