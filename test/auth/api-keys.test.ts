/** API keys (docs/accounts.md): admin-managed, shown once, stored hashed, scoped, expiring, no CSRF. */
import { describe, expect, test, beforeAll, afterAll } from 'bun:test';
import { startTestServer, type Session, type TestServer } from '../harness.ts';

describe('API keys', () => {
  let t: TestServer;
  let admin: Session;
  let editor: Session;
  beforeAll(async () => {
    t = await startTestServer({
      collections: [
        { slug: 'posts', fields: [{ name: 'title', type: 'text' }] },
        { slug: 'pages', fields: [{ name: 'title', type: 'text' }] },
      ],
    });
    admin = await t.user('admin');
    editor = await t.user('editor');
  });
  afterAll(() => t.stop());

  const makeKey = async (body: Record<string, unknown>) =>
    t.request('POST', '/api-keys', { token: admin.token, body: { name: 'k', user: editor.user.id, ...body } });

  test('an admin creates a key; it is shown once and stored only hashed', async () => {
    const res = await makeKey({ scopes: ['posts:read'] });
    expect(res.status).toBe(201);
    const key = res.body.doc.key as string;
    expect(key.startsWith('cms_')).toBe(true);
    expect(res.body.key).toBe(key);
    const again = await t.request('GET', `/api-keys/${res.body.doc.id}`, { token: admin.token });
    expect(again.text).not.toContain(key);
    expect(again.text).not.toContain('keyHash');
    const stored = JSON.stringify(await t.cms.store.all('SELECT * FROM "api-keys"'));
    expect(stored).not.toContain(key);
  });
  test('non-admins cannot create keys', async () => {
    const res = await t.request('POST', '/api-keys', {
      token: editor.token,
      body: { name: 'k', user: editor.user.id, scopes: ['*'] },
    });
    expect(res.status).toBe(403);
  });
  test('bad scopes are a 400', async () => {
    expect((await makeKey({ scopes: ['posts:fly'] })).status).toBe(400);
    expect((await makeKey({ scopes: 'posts:read' })).status).toBe(400);
  });
  test('a key acts as its user within its scopes', async () => {
    const key = (await makeKey({ scopes: ['posts:read', 'posts:create'] })).body.doc.key;
    expect((await t.request('GET', '/posts', { token: key })).status).toBe(200);
    expect(
      (
        await t.request('POST', '/posts', {
          token: key,
          body: { title: 'by key' },
          headers: { origin: 'https://elsewhere.example' },
        })
      ).status,
    ).toBe(201);
    expect((await t.request('GET', '/pages', { token: key })).status).toBe(403);
    expect((await t.request('DELETE', '/posts/1', { token: key })).status).toBe(403);
  });
  test('a * key can do what its user can, and no more', async () => {
    const key = (await makeKey({ scopes: ['*'] })).body.doc.key;
    expect((await t.request('GET', '/pages', { token: key })).status).toBe(200);
    expect(
      (await t.request('POST', '/api-keys', { token: key, body: { name: 'x', user: editor.user.id, scopes: ['*'] } }))
        .status,
    ).toBe(403);
  });
  test('a forged key is a 401', async () => {
    expect((await t.request('GET', '/posts', { token: 'cms_' + 'A'.repeat(43) })).status).toBe(401);
  });
  test('an expired key is a 401 (test clock)', async () => {
    const expiresAt = new Date(t.clock.now() + 60_000).toISOString();
    const key = (await makeKey({ scopes: ['*'], expiresAt })).body.doc.key;
    expect((await t.request('GET', '/posts', { token: key })).status).toBe(200);
    t.clock.advance(61_000);
    expect((await t.request('GET', '/posts', { token: key })).status).toBe(401);
  });
  test('a key of a deactivated user is a 401', async () => {
    const user = await t.user('editor');
    const key = (
      await t.request('POST', '/api-keys', {
        token: admin.token,
        body: { name: 'k', user: user.user.id, scopes: ['*'] },
      })
    ).body.doc.key;
    expect((await t.request('GET', '/posts', { token: key })).status).toBe(200);
    await t.request('PATCH', `/users/${user.user.id}`, { token: admin.token, body: { active: false } });
    expect((await t.request('GET', '/posts', { token: key })).status).toBe(401);
  });
});
