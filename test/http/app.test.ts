// Runs once (on the SQLite pass): counts how the app registers its routes, which no engine takes part in.
/**
 * The app registers one route with Elysia, and finds every route (the API's and the admin's) with one
 * router of its own (src/http/router.ts), matching as Elysia would: static segments before parameters,
 * parameters decoded, a trailing slash ignored, HEAD answered by GET, a POST-only path handing other
 * methods on. Every route still answers at its path and method.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Elysia } from 'elysia';
import { createApp } from '../../src/http/app.ts';
import { startTestServer, type TestServer } from '../harness.ts';
import { releasesConfig } from '../fixtures/releases-config.ts';

let t: TestServer;

beforeAll(async () => {
  const config = releasesConfig();
  t = await startTestServer(
    { ...config, collections: [...config.collections!, { slug: 'media', upload: true, fields: [] }] },
    { socket: false },
  );
});
afterAll(() => t.stop());

describe('route registration', () => {
  test('Elysia holds one route; the app finds every other', () => {
    const added: string[] = [];
    // Elysia's own registration step (private in its types), which every route goes through.
    const proto = Elysia.prototype as unknown as { add: (...args: unknown[]) => unknown };
    const add = proto.add;
    proto.add = function (this: unknown, ...args: unknown[]) {
      added.push(`${args[0]} ${args[1]}`);
      return add.apply(this, args);
    };
    try {
      createApp(t.cms);
    } finally {
      proto.add = add;
    }
    expect(added).toEqual(['ALL /*']);
  });

  test('paths match as Elysia matched them', async () => {
    const admin = await t.session('admin');
    const { doc } = (await t.request('POST', '/posts', { body: { title: 'Routed' }, token: admin.token })).body;
    // A parameter is decoded; a trailing slash is ignored; a static segment wins over a parameter, and a
    // path it does not finish falls back to the parameter's route.
    const escaped = [...String(doc.id)].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    expect((await t.request('GET', `/posts/${escaped}`, { token: admin.token })).body.id).toBe(doc.id);
    expect((await t.request('GET', `/posts/${doc.id}/`, { token: admin.token })).body.id).toBe(doc.id);
    expect((await t.request('GET', '/users/me', { token: admin.token })).body.user.email).toBe(admin.user.email);
    const near = await t.request('GET', '/users/mex', { token: admin.token });
    expect(near.status).toBe(404);
    expect(near.body.errors[0].message).toBe('Document not found.');
    // Malformed escapes reach the route as no such document, not a server error.
    expect((await t.request('GET', '/posts/%E0', { token: admin.token })).status).toBe(404);
    // HEAD is served by the GET route (Bun.serve leaves its body out on a socket).
    const head = await t.fetch('/posts', { method: 'HEAD', headers: { authorization: `Bearer ${admin.token}` } });
    expect(head.status).toBe(200);
    expect(JSON.parse(await head.text()).totalDocs).toBe(1);
    // Outside every route, and an empty segment: the 404 shape.
    for (const path of ['/posts//', '/', '']) {
      const missing = await t.request('GET', path);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ errors: [{ message: 'Not Found' }] });
    }
  });

  test('routes of nested and flat groups answer at their paths and methods', async () => {
    // Versions of a global (three levels deep before), a lock, the upload collection's POST-only route
    // with its list falling through to the collection routes, and a method no route serves.
    expect((await t.request('GET', '/globals/nope/versions')).status).toBe(404);
    expect((await t.request('GET', '/media')).status).toBe(200);
    expect((await t.request('GET', '/media/')).status).toBe(200);
    const refused = await t.request('PUT', '/users/login');
    expect(refused.status).toBe(405);
    const missing = await t.request('GET', '/no/such/route/here');
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toHaveLength(1);
  });
});

describe('answers before routing', () => {
  test('a kept answer whose check fails is not served: the error shape instead', async () => {
    const s = await startTestServer(
      { collections: [{ slug: 'notes', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }] },
      { socket: false },
    );
    try {
      const admin = await s.session('admin');
      expect((await s.request('POST', '/notes', { body: { title: 'a' }, token: admin.token })).status).toBe(201);
      expect((await s.request('GET', '/notes')).status).toBe(200);
      // Kept now: the next read is answered before routing, after reading the change counters again (the
      // statement below moves the database on). Without them, that check fails.
      await s.cms.store.exec('DROP TABLE "_cms_changes"');
      const failed = await s.request('GET', '/notes');
      expect(failed.status).toBe(500);
      expect(failed.body.errors).toHaveLength(1);
    } finally {
      await s.stop().catch(() => {});
    }
  });
});
