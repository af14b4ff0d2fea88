/** Document locks: take, heartbeat, read, take over, lapse after five minutes; a taken-over save is a 409; plain writes never blocked. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }] }],
  globals: [{ slug: 'settings', fields: [{ name: 'siteName', type: 'text' }] }],
};
const lock = (token: string): Record<string, string> => ({ 'x-cms-lock-token': token });

describe('document locks', () => {
  let t: TestServer;
  let ann: Session;
  let bob: Session;
  let annToken = '';
  let bobToken = '';
  beforeAll(async () => {
    t = await startTestServer(config);
    ann = await t.user('editor', 'ann@example.com');
    bob = await t.user('editor', 'bob@example.com');
    await t.request('PATCH', `/users/${ann.user.id}`, { token: (await t.user('admin')).token, body: { name: 'Ann' } });
    await t.request('POST', '/posts', { token: ann.token, body: { title: 'One' } });
  });
  afterAll(() => t.stop());

  test('locks need a login; a free document has no lock; an unknown one is a 404', async () => {
    expect((await t.request('POST', '/posts/1/lock')).status).toBe(401);
    expect((await t.request('GET', '/posts/1/lock', { token: bob.token })).body).toEqual({ lock: null });
    expect((await t.request('POST', '/posts/99/lock', { token: bob.token })).status).toBe(404);
  });

  test('Ann takes the lock; Bob sees her name and cannot take it without takeover', async () => {
    const taken = await t.request('POST', '/posts/1/lock', { token: ann.token });
    expect(taken.status).toBe(200);
    annToken = taken.body.lock.token;
    expect(taken.body.lock).toMatchObject({ mine: true, user: { email: 'ann@example.com', name: 'Ann' } });
    const seen = await t.request('GET', '/posts/1/lock', { token: bob.token });
    expect(seen.body.lock).toMatchObject({ mine: false, user: { name: 'Ann' }, expiresAt: '2026-01-01T00:05:00.000Z' });
    expect(seen.body.lock.token).toBeUndefined();
    const refused = await t.request('POST', '/posts/1/lock', { token: bob.token });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Ann (ann@example.com)');
  });

  test('heartbeats keep it past five minutes', async () => {
    t.clock.advance(4 * 60_000);
    const beat = await t.request('POST', '/posts/1/lock', { token: ann.token, headers: lock(annToken) });
    expect(beat.status).toBe(200);
    expect(beat.body.lock.token).toBe(annToken);
    t.clock.advance(4 * 60_000);
    expect((await t.request('POST', '/posts/1/lock', { token: bob.token })).status).toBe(409);
    const save = await t.request('PATCH', '/posts/1', {
      token: ann.token,
      headers: lock(annToken),
      body: { title: 'Ann 1' },
    });
    expect(save.status).toBe(200);
  });

  test("after Bob takes over, Ann's save is a 409 and changes nothing", async () => {
    const over = await t.request('POST', '/posts/1/lock', { token: bob.token, body: { takeover: true } });
    expect(over.status).toBe(200);
    bobToken = over.body.lock.token;
    expect(bobToken).not.toBe(annToken);
    const refused = await t.request('PATCH', '/posts/1', {
      token: ann.token,
      headers: lock(annToken),
      body: { title: 'Ann 2' },
    });
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('taken over');
    expect((await t.request('GET', '/posts/1', { token: bob.token })).body.title).toBe('Ann 1');
    expect(
      (await t.request('PATCH', '/posts/1', { token: bob.token, headers: lock(bobToken), body: { title: 'Bob' } }))
        .status,
    ).toBe(200);
  });

  test('REST writes without a token and the Local API are never blocked', async () => {
    expect((await t.request('PATCH', '/posts/1', { token: ann.token, body: { title: 'REST' } })).status).toBe(200);
    const { localAPI } = await import('../../src/local.ts');
    const doc = await localAPI(t.cms).update({ collection: 'posts', id: 1, data: { title: 'Local' } });
    expect(doc.title).toBe('Local');
  });

  test('a lock lapses five minutes after the last heartbeat; then old tokens save again', async () => {
    t.clock.advance(5 * 60_000 + 1);
    expect((await t.request('GET', '/posts/1/lock', { token: ann.token })).body).toEqual({ lock: null });
    expect(
      (await t.request('PATCH', '/posts/1', { token: ann.token, headers: lock(annToken), body: { title: 'Ann 3' } }))
        .status,
    ).toBe(200);
  });

  test('globals lock too; only the holder releases', async () => {
    const taken = await t.request('POST', '/globals/settings/lock', { token: ann.token });
    expect(taken.status).toBe(200);
    expect(
      (
        await t.request('POST', '/globals/settings', {
          token: bob.token,
          headers: lock('other'),
          body: { siteName: 'x' },
        })
      ).status,
    ).toBe(409);
    expect((await t.request('DELETE', '/globals/settings/lock', { token: bob.token })).status).toBe(409);
    expect(
      (await t.request('DELETE', '/globals/settings/lock', { token: ann.token, headers: lock(taken.body.lock.token) }))
        .status,
    ).toBe(200);
    expect((await t.request('GET', '/globals/settings/lock', { token: bob.token })).body.lock).toBeNull();
  });
});
