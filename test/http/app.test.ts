// Runs once (on the SQLite pass): counts how the app registers its routes, which no engine takes part in.
/**
 * The app registers each API route once, on itself: route groups are plain lists, not Elysia plugins that
 * Elysia would copy again at each level they are used. Every route still answers at its path and method.
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
  test('each route is added to Elysia once, with the full path, nested groups included', () => {
    const added: string[] = [];
    // Elysia's own registration step (private in its types), which every route of every plugin goes through.
    const proto = Elysia.prototype as unknown as { add: (...args: unknown[]) => unknown };
    const add = proto.add;
    proto.add = function (this: unknown, ...args: unknown[]) {
      added.push(`${args[0]} ${args[1]}`);
      return add.apply(this, args);
    };
    let app: ReturnType<typeof createApp>;
    try {
      app = createApp(t.cms);
    } finally {
      proto.add = add;
    }
    const registered = app.routes.map((r) => `${r.method} ${r.path}`);
    const api = t.cms.config.routes.api;
    expect(registered).toContain(`ALL ${api}/globals/:slug/versions/:version/restore`);
    expect(registered).toContain(`ALL ${api}/:collection/:id/lock`);
    expect(registered).toContain(`POST ${api}/media`);
    expect(registered.filter((r) => r.includes(`${api}/releases`)).length).toBeGreaterThan(0);
    expect(new Set(registered).size).toBe(registered.length);
    expect(added).toEqual(registered);
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
