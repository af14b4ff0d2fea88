/**
 * Attack: climb from a narrow API key to an admin (docs/accounts.md). Before the fix a key
 * scoped `api-keys:create` minted a `*` key, which then created an admin. A key creates only keys whose
 * scopes are within its own, for its own user; users, roles, `active` and other keys need an admin
 * session or an admin's `*` key.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type Session, type TestServer } from '../harness.ts';

describe('attack: API key escalation', () => {
  let t: TestServer;
  let admin: Session;
  let editor: Session;
  const keyFor = async (user: Session, scopes: string[], as: string = admin.token) => {
    const res = await t.request('POST', '/api-keys', { token: as, body: { name: 'k', user: user.user.id, scopes } });
    expect(res.status).toBe(201);
    return res.body.key as string;
  };
  beforeAll(async () => {
    t = await startTestServer({ collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }] }] });
    admin = await t.user('admin');
    editor = await t.user('editor');
  });
  afterAll(async () => {
    await t?.stop();
  });

  test('a key scoped api-keys:create cannot mint a * key, and so cannot reach an admin', async () => {
    const narrow = await keyFor(admin, ['api-keys:create']);
    const star = await t.request('POST', '/api-keys', {
      token: narrow,
      body: { name: 'wide', user: admin.user.id, scopes: ['*'] },
    });
    expect(star.status).toBe(403);
    expect(star.body.errors[0].field).toBe('scopes');
    const wider = await t.request('POST', '/api-keys', {
      token: narrow,
      body: { name: 'wide', user: admin.user.id, scopes: ['posts:*'] },
    });
    expect(wider.status).toBe(403);
    const admins = await t.request('POST', '/users', {
      token: narrow,
      body: { email: 'evil@example.com', password: 'password123', role: 'admin' },
    });
    expect(admins.status).toBe(403);
    expect(
      (await t.request('GET', '/users?where[email][equals]=evil@example.com', { token: admin.token })).body.totalDocs,
    ).toBe(0);
  });

  test('a key creates keys within its own scopes, for its own user only', async () => {
    const key = await keyFor(admin, ['api-keys:create', 'posts:*']);
    const within = await t.request('POST', '/api-keys', {
      token: key,
      body: { name: 'reader', user: admin.user.id, scopes: ['posts:read'] },
    });
    expect(within.status).toBe(201);
    const sameCreate = await t.request('POST', '/api-keys', {
      token: key,
      body: { name: 'again', user: admin.user.id, scopes: ['api-keys:create'] },
    });
    expect(sameCreate.status).toBe(201);
    const otherUser = await t.request('POST', '/api-keys', {
      token: key,
      body: { name: 'theirs', user: editor.user.id, scopes: ['posts:read'] },
    });
    expect(otherUser.status).toBe(403);
    expect(otherUser.body.errors[0].field).toBe('user');
  });

  test('a non-* key of an admin cannot change users, roles, active, or other keys', async () => {
    const userKey = await keyFor(admin, ['users:*', 'api-keys:*']);
    expect(
      (await t.request('PATCH', `/users/${editor.user.id}`, { token: userKey, body: { role: 'admin' } })).status,
    ).toBe(403);
    expect(
      (await t.request('PATCH', `/users/${editor.user.id}`, { token: userKey, body: { active: false } })).status,
    ).toBe(403);
    expect(
      (await t.request('POST', '/users', { token: userKey, body: { email: 'x@example.com', password: 'password123' } }))
        .status,
    ).toBe(403);
    expect((await t.request('DELETE', `/users/${editor.user.id}`, { token: userKey })).status).toBe(403);
    const victim = await t.request('POST', '/api-keys', {
      token: admin.token,
      body: { name: 'victim', user: admin.user.id, scopes: ['posts:read'] },
    });
    expect(
      (await t.request('PATCH', `/api-keys/${victim.body.doc.id}`, { token: userKey, body: { scopes: ['*'] } })).status,
    ).toBe(403);
    expect((await t.request('DELETE', `/api-keys/${victim.body.doc.id}`, { token: userKey })).status).toBe(403);
    expect((await t.request('GET', `/users/${editor.user.id}`, { token: admin.token })).body.role).toBe('editor');
  });

  test("an editor's * key cannot change users either, not even its own role", async () => {
    const editorStar = await keyFor(editor, ['*']);
    expect(
      (await t.request('PATCH', `/users/${editor.user.id}`, { token: editorStar, body: { role: 'admin' } })).status,
    ).toBe(403);
    expect(
      (
        await t.request('POST', '/api-keys', {
          token: editorStar,
          body: { name: 'k', user: editor.user.id, scopes: ['*'] },
        })
      ).status,
    ).toBe(403);
    expect((await t.request('POST', '/posts', { token: editorStar, body: { title: 'still works' } })).status).toBe(201);
  });

  test("an admin's * key and an admin session manage users and keys", async () => {
    const adminStar = await keyFor(admin, ['*']);
    const created = await t.request('POST', '/users', {
      token: adminStar,
      body: { email: 'new@example.com', password: 'password123', role: 'editor' },
    });
    expect(created.status).toBe(201);
    expect(
      (await t.request('PATCH', `/users/${created.body.doc.id}`, { token: adminStar, body: { active: false } })).status,
    ).toBe(200);
    const key = await t.request('POST', '/api-keys', {
      token: adminStar,
      body: { name: 'k', user: admin.user.id, scopes: ['*'] },
    });
    expect(key.status).toBe(201);
    expect((await t.request('DELETE', `/api-keys/${key.body.doc.id}`, { token: adminStar })).status).toBe(200);
    expect(
      (
        await t.request('POST', '/api-keys', {
          token: admin.token,
          body: { name: 'k', user: editor.user.id, scopes: ['*'] },
        })
      ).status,
    ).toBe(201);
  });
});
