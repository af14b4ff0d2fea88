/**
 * Many instances (docs/postgres.md): two servers on one database behave as one. On PostgreSQL (the matrix's
 * second pass) this is two instances of a scaled-out deployment without a configured secret; on SQLite it
 * is two servers on one file. A session, its CSRF token and a preview token made on one work on the other;
 * the login lock counts across both; first-register and jobs are covered in auth-sessions and jobs tests.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { sharedTestDatabase, startTestServer, tempDir, type TestServer } from '../harness.ts';
import { draftsConfig } from '../fixtures/drafts-config.ts';

const config = { ...draftsConfig(), auth: { roles: ['admin', 'editor', 'viewer'], maxLoginAttempts: 3 } };
let shared: Awaited<ReturnType<typeof sharedTestDatabase>>;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  const dir = tempDir();
  shared = await sharedTestDatabase(dir);
  // No `secret` in the config: on PostgreSQL both must find the one generated in the database.
  const saved = process.env.CMS_SECRET;
  delete process.env.CMS_SECRET;
  try {
    [a, b] = await Promise.all([
      startTestServer({ ...config, database: shared.database }, { dir }),
      startTestServer({ ...config, database: shared.database }, { dir }),
    ]);
  } finally {
    if (saved !== undefined) process.env.CMS_SECRET = saved;
  }
});

afterAll(async () => {
  await a?.server.stop();
  await b?.server.stop();
  await shared?.drop();
});

describe('two instances on one database', () => {
  test('they share one secret', () => {
    expect(a.cms.secret).toBe(b.cms.secret);
  });

  test('a session made on one works on the other, by bearer and by cookie with its CSRF token', async () => {
    const session = await a.user('editor');
    expect((await b.request('GET', '/users/me', { token: session.token })).body.user.id).toBe(session.user.id);
    const created = await b.request('POST', '/posts', {
      cookie: session,
      headers: { origin: b.url },
      body: { title: 'from b' },
    });
    expect(created.status).toBe(201);
    expect((await a.request('GET', `/posts/${created.body.doc.id}`, { token: session.token })).body.title).toBe(
      'from b',
    );
  });

  test('a preview token made on one reads the draft on the other', async () => {
    const session = await a.user('editor');
    const doc = (
      await a.request('POST', '/posts?draft=true', { token: session.token, body: { title: 'secret draft' } })
    ).body.doc;
    const preview = await a.request('POST', `/posts/${doc.id}/preview`, { token: session.token, body: {} });
    const token = new URL(preview.body.url).searchParams.get('preview')!;
    const read = await b.request('GET', `/posts/${doc.id}?preview=${encodeURIComponent(token)}`);
    expect(read.status).toBe(200);
    expect(read.body.title).toBe('secret draft');
  });

  test('the login lock counts failures made on both', async () => {
    await a.user('editor', 'locked@example.com', 'password123');
    const wrong = { body: { email: 'locked@example.com', password: 'wrong-password' } };
    expect((await a.request('POST', '/users/login', wrong)).status).toBe(401);
    expect((await b.request('POST', '/users/login', wrong)).status).toBe(401);
    expect((await a.request('POST', '/users/login', wrong)).status).toBe(401);
    const right = { body: { email: 'locked@example.com', password: 'password123' } };
    expect((await b.request('POST', '/users/login', right)).status).toBe(429);
  });
});
