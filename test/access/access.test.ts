/** Access rules (docs/config.md, docs/documents.md): defaults, booleans, where-filters merged into SQL, field access, 401 vs 403 vs 404. */
import { describe, expect, test, beforeAll, afterAll } from 'bun:test';
import { runScenarios, startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  collections: [
    { slug: 'private', fields: [{ name: 'text', type: 'text' }] },
    {
      slug: 'articles',
      access: {
        read: ({ user }) => (user ? true : { status: { equals: 'published' } }),
        create: ({ user }) => Boolean(user),
        update: ({ user }) => (user?.role === 'admin' ? true : user ? { owner: { equals: user.id } } : false),
        delete: ({ user }) => user?.role === 'admin',
      },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'status', type: 'select', options: ['draft', 'published'] },
        { name: 'owner', type: 'relationship', relationTo: 'users' },
        {
          name: 'internal',
          type: 'text',
          access: { read: ({ user }) => user?.role === 'admin', update: ({ user }) => user?.role === 'admin' },
        },
      ],
    },
  ],
};

runScenarios(
  'default access for project collections',
  config,
  [
    {
      name: 'anonymous list is a 401',
      method: 'GET',
      url: '/private',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'anonymous create is a 401',
      method: 'POST',
      url: '/private',
      body: { text: 'x' },
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'logged-in create works',
      method: 'POST',
      url: '/private',
      body: { text: 'y' },
      as: 'editor',
      status: 201,
      contains: ['"doc":{"id":2', '"text":"y"'],
      events: { create: 1, '*': 0 },
    },
    {
      name: 'logged-in read works',
      method: 'GET',
      url: '/private/1',
      as: 'editor',
      status: 200,
      contains: ['"id":1', '"text":"x"'],
    },
    {
      name: 'anonymous read one is a 401',
      method: 'GET',
      url: '/private/1',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
  ],
  {
    async seed(t) {
      await t.request('POST', '/private', { token: (await t.user('editor')).token, body: { text: 'x' } });
    },
  },
);

describe('rules that return filters', () => {
  let t: TestServer;
  let admin: Session;
  let alice: Session;
  let bob: Session;
  beforeAll(async () => {
    t = await startTestServer(config);
    admin = await t.user('admin');
    alice = await t.user('editor');
    bob = await t.user('editor');
    for (const [title, status, owner] of [
      ['pub', 'published', alice],
      ['draft', 'draft', alice],
      ['bobs', 'published', bob],
    ] as const) {
      await t.request('POST', '/articles', {
        token: admin.token,
        body: { title, status, owner: owner.user.id, internal: 'secret-note' },
      });
    }
  });
  afterAll(() => t.stop());

  test('anonymous list sees only what the filter lets through, counted in SQL', async () => {
    const res = await t.request('GET', '/articles');
    expect(res.body.totalDocs).toBe(2);
    expect(res.body.docs.map((d: { title: string }) => d.title).sort()).toEqual(['bobs', 'pub']);
  });
  test('a document hidden by the read filter is a 404', async () => {
    expect((await t.request('GET', '/articles/2')).status).toBe(404);
    expect((await t.request('GET', '/articles/2', { token: alice.token })).status).toBe(200);
  });
  test('the filter cannot be escaped with the client where', async () => {
    const res = await t.request(
      'GET',
      '/articles?where[or][0][status][equals]=draft&where[or][1][title][equals]=draft',
    );
    expect(res.body.totalDocs).toBe(0);
  });
  test('update filter: own documents only, others are a 403', async () => {
    expect((await t.request('PATCH', '/articles/1', { token: alice.token, body: { title: 'mine' } })).status).toBe(200);
    const res = await t.request('PATCH', '/articles/3', { token: alice.token, body: { title: 'not mine' } });
    expect(res.status).toBe(403);
    expect((await t.request('GET', '/articles/3')).body.title).toBe('bobs');
  });
  test('delete denied is a 403 with credentials and a 401 without', async () => {
    expect((await t.request('DELETE', '/articles/1', { token: alice.token })).status).toBe(403);
    expect((await t.request('DELETE', '/articles/1')).status).toBe(401);
  });
  test('field read access hides the field', async () => {
    expect((await t.request('GET', '/articles/1', { token: alice.token })).text).not.toContain('secret-note');
    expect((await t.request('GET', '/articles/1', { token: admin.token })).text).toContain('secret-note');
  });
  test('field update access drops the field silently', async () => {
    await t.request('PATCH', '/articles/1', { token: alice.token, body: { internal: 'changed' } });
    expect((await t.request('GET', '/articles/1', { token: admin.token })).body.internal).toBe('secret-note');
  });
  test('depth population respects the related collection read access', async () => {
    const anonymous = await t.request('GET', '/articles/1?depth=1');
    expect(anonymous.body.owner).toBeNull();
    const member = await t.request('GET', '/articles/1?depth=1', { token: alice.token });
    expect(member.body.owner.email).toBe(alice.user.email);
    expect(member.text).not.toContain('passwordHash');
  });
});

describe('users: roles, self-service and the last active admin', () => {
  let t: TestServer;
  let admin: Session;
  let editor: Session;
  beforeAll(async () => {
    t = await startTestServer({});
    admin = await t.user('admin');
    editor = await t.user('editor');
  });
  afterAll(() => t.stop());

  test('new users get role editor by default', async () => {
    const res = await t.request('POST', '/users', {
      token: admin.token,
      body: { email: 'new@example.com', password: 'password123' },
    });
    expect(res.status).toBe(201);
    expect(res.body.doc.role).toBe('editor');
    expect(res.body.doc.active).toBe(true);
  });
  test('emails are unique, case-insensitively', async () => {
    const res = await t.request('POST', '/users', {
      token: admin.token,
      body: { email: 'NEW@example.com', password: 'password123' },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('email');
  });
  test('a role outside auth.roles is a 400', async () => {
    expect(
      (
        await t.request('POST', '/users', {
          token: admin.token,
          body: { email: 'r@example.com', password: 'password123', role: 'owner' },
        })
      ).status,
    ).toBe(400);
  });
  test('editors cannot create users', async () => {
    expect(
      (
        await t.request('POST', '/users', {
          token: editor.token,
          body: { email: 'e2@example.com', password: 'password123' },
        })
      ).status,
    ).toBe(403);
  });
  test('a user updates themself but not their role or active', async () => {
    const res = await t.request('PATCH', `/users/${editor.user.id}`, {
      token: editor.token,
      body: { name: 'Ed', role: 'admin', active: false },
    });
    expect(res.status).toBe(200);
    expect(res.body.doc).toMatchObject({ name: 'Ed', role: 'editor', active: true });
  });
  test('a user cannot update someone else', async () => {
    expect(
      (await t.request('PATCH', `/users/${admin.user.id}`, { token: editor.token, body: { name: 'x' } })).status,
    ).toBe(403);
  });
  test('the last active admin cannot be demoted, deactivated or deleted (400)', async () => {
    for (const body of [{ role: 'editor' }, { active: false }]) {
      const res = await t.request('PATCH', `/users/${admin.user.id}`, { token: admin.token, body });
      expect(res.status).toBe(400);
    }
    expect((await t.request('DELETE', `/users/${admin.user.id}`, { token: admin.token })).status).toBe(400);
    const me = await t.request('GET', '/users/me', { token: admin.token });
    expect(me.body.user).toMatchObject({ role: 'admin', active: true });
  });
  test('two racing demotions of two admins leave one admin', async () => {
    const second = await t.user('admin');
    const results = await Promise.all([
      t.request('PATCH', `/users/${admin.user.id}`, { token: second.token, body: { role: 'editor' } }),
      t.request('PATCH', `/users/${second.user.id}`, { token: admin.token, body: { role: 'editor' } }),
    ]);
    // The loser is refused either by the invariant (400) or, if the winner committed first, by access (403).
    expect(results.filter((r) => r.status === 200).length).toBe(1);
    expect(results.every((r) => [200, 400, 403].includes(r.status))).toBe(true);
    const admins = await t.cms.store.get<{ n: number }>(
      `SELECT count(*) AS n FROM users WHERE role = 'admin' AND active = 1`,
    );
    expect(admins!.n).toBe(1);
  });
  test('racing operations that both pass access: the transaction refuses the second (400)', async () => {
    const { update } = await import('../../src/operations/update.ts');
    const { createContext } = await import('../../src/operation-context.ts');
    const a = await t.user('admin');
    const b = await t.user('admin');
    // Demote everyone else first, leaving exactly a and b as active admins.
    await t.cms.store.run(`UPDATE users SET role = 'editor' WHERE role = 'admin' AND id NOT IN (?, ?)`, [
      a.user.id as number,
      b.user.id as number,
    ]);
    const ctx = createContext(t.cms, { overrideAccess: true });
    const results = await Promise.allSettled([
      update(ctx, { collection: 'users', id: a.user.id as number, data: { active: false } }),
      update(ctx, { collection: 'users', id: b.user.id as number, data: { active: false } }),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(1);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason.status).toBe(400);
    const admins = await t.cms.store.get<{ n: number }>(
      `SELECT count(*) AS n FROM users WHERE role = 'admin' AND active = 1`,
    );
    expect(admins!.n).toBe(1);
  });
  test('with another active admin, demotion works', async () => {
    const other = await t.user('admin');
    expect(
      (await t.request('PATCH', `/users/${other.user.id}`, { token: other.token, body: { role: 'editor' } })).status,
    ).toBe(200);
  });
});

runScenarios(
  'writes without credentials are a 401, not a 404',
  config,
  [
    {
      name: 'PATCH without a session',
      method: 'PATCH',
      url: '/private/1',
      body: { text: 'y' },
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'DELETE without a session',
      method: 'DELETE',
      url: '/private/1',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'PATCH with a forged bearer',
      method: 'PATCH',
      url: '/private/1',
      body: { text: 'y' },
      headers: { authorization: 'Bearer forged' },
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
  ],
  {
    async seed(t) {
      const s = await t.user('editor');
      await t.request('POST', '/private', { token: s.token, body: { text: 'x' } });
    },
  },
);
