/**
 * The audit log (docs/audit-log.md): one entry per acknowledged write from every path, written in the
 * write's own transaction; none for a refused or failed write; never a secret or a hidden field; read by
 * admins at GET /audit-log; old entries removed by the job runner as the clock moves.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import fs from 'node:fs';
import {
  runScenarios,
  startTestServer,
  tempDir,
  type Scenario,
  type TestResponse,
  type TestServer,
} from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { createContext } from '../../src/operation-context.ts';
import { listAuditEntries } from '../../src/audit/list-entries.ts';
import { runJobs } from '../../src/jobs/run-jobs.ts';
import * as operations from '../../src/operations/index.ts';
import { exportContent } from '../../src/content-files/export-content.ts';
import { importContent } from '../../src/content-files/import-content.ts';

const JOBS_SECRET = 'audit-jobs-secret-0123456789';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const config: UserConfig = {
  jobs: { secret: JOBS_SECRET },
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  collections: [
    {
      slug: 'posts',
      drafts: true,
      fields: [
        { name: 'title', type: 'text', required: true, localized: true },
        { name: 'slug', type: 'text', unique: true },
        { name: 'seo', type: 'group', fields: [{ name: 'description', type: 'text' }] },
        { name: 'internalNote', type: 'text', hidden: true },
      ],
    },
    {
      slug: 'notes',
      fields: [{ name: 'body', type: 'text' }],
      access: {
        create: ({ user }) => user?.role === 'admin',
        read: () => true,
        update: ({ user }) => Boolean(user),
        delete: ({ user }) => Boolean(user),
      },
    },
  ],
  globals: [{ slug: 'settings', fields: [{ name: 'siteName', type: 'text' }] }],
};

type Entry = Record<string, any>;
let seen = 0;
/** The entries written since the last call, oldest first. */
async function fresh(t: TestServer): Promise<Entry[]> {
  const all = (
    await listAuditEntries(createContext(t.cms, { overrideAccess: true }), {
      sort: 'id',
      limit: 100,
      page: Math.floor(seen / 100) + 1,
    })
  ).docs;
  const entries = all.slice(seen % 100);
  seen += entries.length;
  return entries;
}
const ids: Record<string, number> = {};
/** What no entry may hold: passwords and keys, added as rows learn them. */
const secrets: string[] = ['a-long-password-9'];

/** The newest entry's id once the row's setup is done: a row's check reads only what its request wrote. */
let mark = 0;
async function entriesSinceMark(t: TestServer): Promise<Entry[]> {
  const ctx = createContext(t.cms, { overrideAccess: true });
  return (await listAuditEntries(ctx, { where: { id: { greater_than: mark } }, sort: 'id', limit: 100 })).docs;
}
async function setMark(t: TestServer): Promise<void> {
  const [newest] = (await listAuditEntries(createContext(t.cms, { overrideAccess: true }), { limit: 1 })).docs;
  mark = Number(newest?.id ?? 0);
}

type Expected = Entry[] | ((res: TestResponse) => Entry[]);
/** The request's own check, then exactly these entries (a partial match each). */
function expectEntries(expected: Expected): NonNullable<Scenario['check']> {
  return async (res, t) => {
    const wanted = typeof expected === 'function' ? expected(res) : expected;
    const entries = await entriesSinceMark(t);
    expect(entries).toHaveLength(wanted.length);
    wanted.forEach((e, i) => expect(entries[i]).toMatchObject(e));
    const text = JSON.stringify(entries);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/passwordHash|keyHash|internalNote|secret-note|"password"/);
  };
}
const none = expectEntries([]);

const write = (s: Omit<Scenario, 'check'> & { entries: Expected }): Scenario => ({
  ...s,
  check: expectEntries(s.entries),
});

// Slugs are unique: the posts one setup makes (two for the unique and bulk rows) each get a slug of their own.
let slugs = 0;
/** A post made through the Local API (its entries come before the row's mark), with a hidden note to keep out. */
async function post(t: TestServer, data: Record<string, unknown> = {}): Promise<{ id: number; slug: string }> {
  const ctx = createContext(t.cms, { overrideAccess: true });
  const slug = `post-${++slugs}`;
  const doc = await operations.create(ctx, {
    collection: 'posts',
    data: { title: 'Hello', slug, internalNote: 'secret-note', ...data },
  });
  return { id: doc.id as number, slug: doc.slug as string };
}
/** A REST write as a new admin that must succeed, made before the row's mark. */
async function adminWrite(t: TestServer, method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token: (await t.user('admin')).token, body });
  expect(res.status).toBeLessThan(300);
  return res.body;
}

/** A user to sign in as, made before any row runs. */
const seed = async (t: TestServer) => {
  const ctx = createContext(t.cms, { overrideAccess: true });
  await operations.create(ctx, {
    collection: 'users',
    data: { email: 'member@example.com', password: 'a-long-password-9', role: 'editor', active: true },
  });
};

let takenSlug = '';
let bulk: { id: number; slug: string }[] = [];

const rows: Scenario[] = [
  {
    name: 'the log starts empty',
    method: 'GET',
    url: '/posts',
    status: 200,
    as: 'admin',
    contains: ['"docs":['],
    // A read writes no entry.
    check: none,
  },
  write({
    name: 'a create records the values it set, by field and locale',
    as: 'admin',
    method: 'POST',
    url: '/posts?locale=en',
    body: { title: 'Hello', slug: 'hello', seo: { description: 'd' }, internalNote: 'secret-note' },
    status: 201,
    events: { create: 1 },
    contains: ['"slug":"hello"'],
    entries: (res) => [
      {
        action: 'create',
        collection: 'posts',
        document: res.body.doc.id,
        via: 'rest',
        ip: '127.0.0.1',
        apiKey: null,
        changes: {
          'title.en': { from: null, to: 'Hello' },
          slug: { from: null, to: 'hello' },
          'seo.description': { from: null, to: 'd' },
          status: { from: null, to: 'draft' },
        },
      },
    ],
  }),
  write({
    name: 'a draft save is an update of the draft',
    as: 'admin',
    method: 'PATCH',
    url: () => `/posts/${ids.post}?draft=true&locale=de`,
    setup: async (t) => void (ids.post = (await post(t)).id),
    body: { title: 'Hallo' },
    status: 200,
    events: { draft: 1 },
    contains: ['"title":"Hallo"'],
    entries: () => [{ action: 'update', document: ids.post, changes: { 'title.de': { from: null, to: 'Hallo' } } }],
  }),
  write({
    name: 'a save that publishes is one publish entry',
    as: 'admin',
    method: 'PATCH',
    url: () => `/posts/${ids.post}`,
    // A draft in German first, as a post has before it is published.
    setup: async (t) => {
      ids.post = (await post(t)).id;
      await adminWrite(t, 'PATCH', `/posts/${ids.post}?draft=true&locale=de`, { title: 'Hallo' });
    },
    body: { status: 'published' },
    status: 200,
    events: { publish: 1, update: 1 },
    contains: ['"_status":"published"'],
    entries: () => [{ action: 'publish', document: ids.post }],
  }),
  write({
    name: 'unpublish',
    as: 'admin',
    method: 'POST',
    url: () => `/posts/${ids.post}/unpublish`,
    setup: async (t) => {
      ids.post = (await post(t)).id;
      await adminWrite(t, 'PATCH', `/posts/${ids.post}`, { status: 'published' });
    },
    status: 200,
    events: { unpublish: 1 },
    contains: ['"_status":"draft"'],
    entries: () => [
      { action: 'unpublish', document: ids.post, changes: { status: { from: 'published', to: 'draft' } } },
    ],
  }),
  write({
    name: 'restoring a version',
    as: 'admin',
    method: 'POST',
    url: () => `/posts/versions/${ids.version}`,
    // The post's first version, restored after it was published and unpublished.
    setup: async (t) => {
      ids.post = (await post(t)).id;
      await adminWrite(t, 'PATCH', `/posts/${ids.post}`, { status: 'published' });
      await adminWrite(t, 'POST', `/posts/${ids.post}/unpublish`);
      const versions = await adminWrite(t, 'GET', `/posts/${ids.post}/versions?sort=createdAt&limit=100`);
      ids.version = versions.docs.map((v: { id: number }) => v.id).sort((a: number, b: number) => a - b)[0];
    },
    status: 200,
    events: { draft: 1 },
    contains: ['"message":"Version restored."'],
    entries: () => [{ action: 'restore', collection: 'posts', document: ids.post }],
  }),
  write({
    name: 'scheduling',
    as: 'admin',
    method: 'POST',
    url: () => `/posts/${ids.post}/schedule`,
    setup: async (t) => void (ids.post = (await post(t)).id),
    body: (t: TestServer) => ({ action: 'publish', at: new Date(t.clock.now() + HOUR).toISOString() }),
    status: 201,
    events: { '*': 0 },
    contains: ['"action":"publish"'],
    entries: () => [
      {
        action: 'schedule',
        collection: 'posts',
        document: ids.post,
        changes: { schedule: { from: null, to: { action: 'publish' } } },
      },
    ],
  }),
  write({
    name: 'a draft to discard',
    as: 'admin',
    method: 'PATCH',
    url: () => `/posts/${ids.post}?draft=true`,
    setup: async (t) => {
      ids.post = (await post(t)).id;
      await adminWrite(t, 'PATCH', `/posts/${ids.post}`, { status: 'published' });
    },
    body: { slug: 'later' },
    status: 200,
    events: { draft: 1 },
    contains: ['"slug":"later"'],
    entries: () => [{ action: 'update', document: ids.post }],
  }),
  write({
    name: 'discarding the draft',
    as: 'admin',
    method: 'POST',
    url: () => `/posts/${ids.post}/discard-draft`,
    // A published post with a newer draft to discard.
    setup: async (t) => {
      const made = await post(t);
      ids.post = made.id;
      await adminWrite(t, 'PATCH', `/posts/${ids.post}`, { status: 'published' });
      await adminWrite(t, 'PATCH', `/posts/${ids.post}?draft=true`, { slug: `${made.slug}-draft` });
    },
    status: 200,
    events: { '*': 0 },
    contains: ['"_status":"published"'],
    entries: () => [{ action: 'discard_draft', document: ids.post }],
  }),
  {
    name: 'a write without login is refused and leaves nothing',
    method: 'POST',
    url: '/posts',
    body: { title: 'x' },
    status: 401,
    contains: ['"errors"', 'You must be logged in'],
    check: none,
  },
  {
    // The editor was made and signed in before the row's mark: nothing at all for the refused write.
    name: 'a write the access rule refuses leaves nothing',
    as: 'editor',
    method: 'POST',
    url: '/notes',
    body: { body: 'x' },
    status: 403,
    contains: ['"errors"', 'You are not allowed to perform this action.'],
    check: none,
  },
  {
    name: 'a write that fails validation leaves nothing',
    as: 'admin',
    method: 'POST',
    url: '/posts',
    body: { slug: 'no-title' },
    status: 400,
    contains: ['"field":"title"'],
    check: none,
  },
  write({
    name: 'a second post',
    as: 'admin',
    method: 'POST',
    url: '/posts',
    body: { title: 'Two', slug: 'two' },
    status: 201,
    events: { create: 1 },
    contains: ['"title":"Two"'],
    entries: (res) => [{ action: 'create', document: res.body.doc.id }],
  }),
  {
    name: 'a write that fails inside its transaction (unique) leaves nothing',
    as: 'admin',
    method: 'PATCH',
    url: () => `/posts/${ids.post}`,
    body: () => ({ slug: takenSlug }),
    setup: async (t) => {
      takenSlug = (await post(t)).slug;
      ids.post = (await post(t)).id;
    },
    status: 400,
    contains: ['"field":"slug"'],
    check: none,
  },
  write({
    name: 'bulk update: one entry per document',
    as: 'admin',
    method: 'PATCH',
    url: () => `/posts?where[slug][in]=${bulk.map((p) => p.slug).join(',')}`,
    setup: async (t) => void (bulk = [await post(t), await post(t)]),
    body: { seo: { description: 'bulk' } },
    status: 200,
    events: { update: 2 },
    contains: ['"description":"bulk"'],
    entries: () => [
      { action: 'update', document: bulk[0]!.id },
      { action: 'update', document: bulk[1]!.id },
    ],
  }),
  write({
    name: 'delete records the values it removed',
    as: 'admin',
    method: 'DELETE',
    url: () => `/posts/${bulk[0]!.id}`,
    setup: async (t) => void (bulk = [await post(t, { title: 'Two' })]),
    status: 200,
    events: { delete: 1 },
    contains: ['"title":"Two"'],
    entries: () => [{ action: 'delete', document: bulk[0]!.id, changes: { slug: { from: bulk[0]!.slug, to: null } } }],
  }),
  write({
    name: 'a global save',
    as: 'admin',
    method: 'POST',
    url: '/globals/settings',
    body: { siteName: 'Site' },
    status: 200,
    events: { update: 1 },
    contains: ['"siteName":"Site"'],
    entries: [
      { action: 'update', global: 'settings', document: null, changes: { siteName: { from: null, to: 'Site' } } },
    ],
  }),
  write({
    name: 'an upload',
    as: 'admin',
    method: 'POST',
    url: '/media',
    status: 201,
    events: { create: 1 },
    body: () => {
      const f = new FormData();
      f.append('file', new File(['%PDF-1.4\n%%EOF\n'], 'a.pdf', { type: 'application/pdf' }));
      return f;
    },
    contains: ['"originalName":"a.pdf"'],
    entries: [{ action: 'create', collection: 'media', changes: { originalName: { from: null, to: 'a.pdf' } } }],
  }),
  write({
    name: 'a user with a password: neither it nor its hash is recorded',
    as: 'admin',
    method: 'POST',
    url: '/users',
    body: { email: 'new@example.com', password: 'a-long-password-9', role: 'editor' },
    status: 201,
    events: { create: 1 },
    contains: ['"email":"new@example.com"'],
    notContains: ['a-long-password-9', 'passwordHash'],
    entries: [{ action: 'create', collection: 'users', changes: { email: { from: null, to: 'new@example.com' } } }],
  }),
  {
    name: 'an API key: the key, its hash and its prefix are never recorded',
    as: 'admin',
    method: 'POST',
    url: '/api-keys',
    status: 201,
    events: { create: 1 },
    body: (_t: TestServer) => ({ name: 'bot', user: ids.admin, scopes: ['notes:*'] }),
    setup: async (t) => {
      ids.admin = (await t.cms.store.get<{ id: number }>(
        'SELECT "id" FROM "users" WHERE "role" = ? ORDER BY "id" LIMIT 1',
        ['admin'],
      ))!.id;
    },
    contains: ['"name":"bot"', '"key":"'],
    check: async (res, t) => {
      secrets.push(res.body.doc.key, res.body.doc.key.slice(4, 12));
      await expectEntries([{ action: 'create', collection: 'api-keys', changes: { name: { from: null, to: 'bot' } } }])(
        res,
        t,
      );
    },
  },
  {
    name: 'a login',
    method: 'POST',
    url: '/users/login',
    body: { email: 'member@example.com', password: 'a-long-password-9' },
    status: 200,
    events: { '*': 0 },
    contains: ['"email":"member@example.com"', '"token":"'],
    check: expectEntries([{ action: 'login', collection: 'users', via: 'rest', ip: '127.0.0.1' }]),
  },
  {
    name: 'a failed login is recorded although nothing was written',
    method: 'POST',
    url: '/users/login',
    body: { email: 'member@example.com', password: 'wrong-password' },
    status: 401,
    contains: ['"errors"', 'The email or password provided is incorrect.'],
    check: expectEntries([{ action: 'login_failed', collection: 'users', user: null }]),
  },
  {
    name: 'a login for an unknown email too',
    method: 'POST',
    url: '/users/login',
    body: { email: 'nobody@example.com', password: 'wrong-password' },
    status: 401,
    contains: ['"errors"', 'The email or password provided is incorrect.'],
    check: expectEntries([{ action: 'login_failed', document: null }]),
  },
];

runScenarios(
  'audit log: one entry per REST write, none for refused or failed ones',
  config,
  // Every row's mark is taken last in its setup, so what the setup wrote is not counted.
  rows.map((row) => ({
    ...row,
    setup: async (t: TestServer) => {
      await row.setup?.(t);
      await setMark(t);
    },
  })),
  { seed },
);

describe('audit log: the other paths, reading it, and retention', () => {
  let t: TestServer;
  let admin: { token: string; user: Record<string, unknown> };
  let editor: { token: string };
  beforeAll(async () => {
    t = await startTestServer(config);
    admin = await t.user('admin');
    editor = await t.user('editor');
    seen = 0;
    await fresh(t);
  });
  afterAll(() => t?.stop());

  test('an API key write names the key and its user', async () => {
    const key = (
      await t.request('POST', '/api-keys', {
        token: admin.token,
        body: { name: 'k', user: admin.user.id, scopes: ['notes:*'] },
      })
    ).body.doc;
    await fresh(t);
    expect((await t.request('POST', '/notes', { token: key.key, body: { body: 'by key' } })).status).toBe(201);
    expect(await fresh(t)).toMatchObject([
      { action: 'create', collection: 'notes', user: admin.user.id, apiKey: key.id, via: 'rest' },
    ]);
  });

  test('a GraphQL mutation and a GraphQL login write via graphql', async () => {
    const res = await t.request('POST', '/graphql', {
      token: admin.token,
      body: { query: 'mutation { createNote(data: { body: "by graphql" }) { id } }' },
    });
    expect(res.body.data.createNote.id).toBeGreaterThan(0);
    expect(await fresh(t)).toMatchObject([
      {
        action: 'create',
        collection: 'notes',
        document: res.body.data.createNote.id,
        via: 'graphql',
        user: admin.user.id,
      },
    ]);
    const email = admin.user.email as string;
    await t.request('POST', '/graphql', {
      body: { query: `mutation { loginUser(email: "${email}", password: "wrong-password") { token } }` },
    });
    expect(await fresh(t)).toMatchObject([{ action: 'login_failed', via: 'graphql' }]);
  });

  test('the Local API writes via local, the job loop via job', async () => {
    const cms = { ...createContext(t.cms, { overrideAccess: true }) };
    const doc = await operations.create(cms, { collection: 'posts', data: { title: 'Local', slug: 'local' } });
    await operations.scheduleAction(cms, {
      collection: 'posts',
      id: doc.id as number,
      action: 'publish',
      at: new Date(t.clock.now() + HOUR).toISOString(),
    });
    expect(await fresh(t)).toMatchObject([
      { action: 'create', via: 'local', user: null, ip: null },
      { action: 'schedule', via: 'local' },
    ]);
    t.clock.advance(2 * HOUR);
    await runJobs(t.cms);
    expect(await fresh(t)).toMatchObject([{ action: 'publish', via: 'job', collection: 'posts', document: doc.id }]);
  });

  test('cms import writes one entry per document, via cli', async () => {
    const out = tempDir('audit-export-');
    await exportContent(t.cms, { outDir: out });
    const target = await startTestServer(config);
    try {
      const result = await importContent(target.cms, out);
      const entries = (
        await listAuditEntries(createContext(target.cms, { overrideAccess: true }), {
          where: { action: { equals: 'import' } },
          limit: 100,
        })
      ).docs;
      const imported = Object.values(result.documents).reduce((a, b) => a + b, 0) + result.globals;
      expect(entries.length).toBe(imported);
      expect(entries.every((e) => e.via === 'cli')).toBe(true);
    } finally {
      await target.stop();
      fs.rmSync(out, { recursive: true, force: true });
    }
  });

  test('GET /audit-log: admins only', async () => {
    expect((await t.request('GET', '/audit-log')).status).toBe(401);
    expect((await t.request('GET', '/audit-log', { token: editor.token })).status).toBe(403);
    const res = await t.request('GET', '/audit-log', { token: admin.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'docs',
      'hasNextPage',
      'hasPrevPage',
      'limit',
      'nextPage',
      'page',
      'pagingCounter',
      'prevPage',
      'totalDocs',
      'totalPages',
    ]);
    expect(Object.keys(res.body.docs[0]).sort()).toEqual([
      'action',
      'apiKey',
      'at',
      'changes',
      'collection',
      'document',
      'id',
      'ip',
      'user',
      'via',
    ]);
    // Newest first by default.
    expect(res.body.docs[0].id).toBeGreaterThan(res.body.docs[1].id);
  });

  test('GET /audit-log: where on every field, and sort', async () => {
    const q = async (query: string) => await t.request('GET', `/audit-log?${query}`, { token: admin.token });
    const by = async (query: string) => (await q(query)).body.docs as Entry[];
    expect((await by('where[action][equals]=publish')).every((e) => e.action === 'publish')).toBe(true);
    expect((await by('where[via][equals]=job')).length).toBe(1);
    expect((await by(`where[user][equals]=${admin.user.id}&where[collection][equals]=notes`)).length).toBe(2);
    expect(
      (await by('where[collection][equals]=posts&where[document][equals]=1&limit=100')).every((e) => e.document === 1),
    ).toBe(true);
    expect((await by('where[ip][exists]=false&limit=100')).every((e) => e.ip === null)).toBe(true);
    expect((await by('where[apiKey][exists]=true')).length).toBe(1);
    expect(
      (await by(`where[at][less_than]=${encodeURIComponent(new Date(t.clock.now() + 1).toISOString())}&limit=1`))
        .length,
    ).toBe(1);
    expect((await by('where[global][equals]=settings')).length).toBe(0);
    expect(
      (await by('where[or][0][action][equals]=login&where[or][1][action][equals]=create&limit=100')).every((e) =>
        ['login', 'create'].includes(e.action),
      ),
    ).toBe(true);
    const ascending = await by('sort=at&limit=100');
    expect(ascending.map((e) => e.at)).toEqual([...ascending.map((e) => e.at)].sort());
    const byAction = await by('sort=action,-id&limit=100');
    expect(byAction.map((e) => e.action)).toEqual([...byAction.map((e) => e.action)].sort());
    const unknown = await q('where[password][equals]=x');
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('password');
    expect((await q('limit=0')).status).toBe(400);
  });

  test('retention: the job runner removes entries older than keepDays as the clock moves', async () => {
    const before = (await listAuditEntries(createContext(t.cms, { overrideAccess: true }))).totalDocs;
    expect(before).toBeGreaterThan(0);
    const list = async () =>
      (await listAuditEntries(createContext(t.cms, { overrideAccess: true }), { limit: 100 })).docs;
    expect(before).toBeLessThan(100);
    t.clock.advance(200 * DAY);
    await operations.create(createContext(t.cms, { overrideAccess: true }), {
      collection: 'notes',
      data: { body: 'later' },
    });
    const later = (await list())[0]!;
    expect(later).toMatchObject({ action: 'create', collection: 'notes' });
    t.clock.advance(164 * DAY);
    await runJobs(t.cms);
    expect(await list()).toHaveLength(before + 1);
    t.clock.advance(2 * DAY);
    await runJobs(t.cms);
    // Only the entries of a year ago went; the one written 200 days later stays until its own year is up.
    expect((await list()).map((e) => e.id)).toEqual([later.id]);
    t.clock.advance(200 * DAY);
    await runJobs(t.cms);
    expect(await list()).toEqual([]);
  });
});

describe('audit: false', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ ...config, audit: false });
  });
  afterAll(() => t?.stop());
  test('writes leave no entry and /audit-log does not exist', async () => {
    const admin = await t.user('admin');
    expect((await t.request('POST', '/notes', { token: admin.token, body: { body: 'x' } })).status).toBe(201);
    expect(
      (await t.cms.store.get<{ n: number }>('SELECT CAST(count(*) AS INTEGER) AS "n" FROM "_cms_audit_log"'))!.n,
    ).toBe(0);
    expect((await t.request('GET', '/audit-log', { token: admin.token })).status).toBe(404);
  });
});

describe('audit log: hidden fields at every depth', () => {
  const SECRETS = ['ROW-SECRET', 'BLOCK-SECRET', 'RICH-SECRET', 'GROUP-SECRET', 'LOCALE-SECRET'];
  const hidden = { name: 'secret', type: 'text', hidden: true } as const;
  let t: TestServer;
  let admin: { token: string; user: Record<string, unknown> };
  const richText = (title: string, secret?: string) => ({
    root: {
      type: 'root',
      direction: null,
      format: '',
      indent: 0,
      version: 1,
      children: [{ type: 'block', format: '', version: 2, fields: { id: 'b1', blockType: 'card', title, secret } }],
    },
  });
  beforeAll(async () => {
    t = await startTestServer({
      localization: { locales: ['en', 'de'], defaultLocale: 'en' },
      collections: [
        {
          slug: 'pages',
          fields: [
            { name: 'title', type: 'text' },
            { name: 'rows', type: 'array', fields: [{ name: 'label', type: 'text' }, hidden] },
            {
              name: 'layout',
              type: 'blocks',
              blocks: [{ slug: 'cta', fields: [{ name: 'text', type: 'text' }, hidden] }],
            },
            {
              name: 'content',
              type: 'richText',
              blocks: [{ slug: 'card', fields: [{ name: 'title', type: 'text' }, hidden] }],
            },
            { name: 'meta', type: 'group', fields: [{ name: 'note', type: 'text' }, hidden] },
            { name: 'links', type: 'array', localized: true, fields: [{ name: 'url', type: 'text' }, hidden] },
          ],
        },
      ],
      mcp: { requestsPerMinute: 1000 },
    });
    admin = await t.user('admin');
  });
  afterAll(() => t?.stop());

  const logged = async () =>
    JSON.stringify((await t.request('GET', '/audit-log?limit=100', { token: admin.token })).body.docs);

  test('REST, GraphQL and MCP writes record nested values without their hidden fields', async () => {
    const created = await t.request('POST', '/pages?locale=en', {
      token: admin.token,
      body: {
        title: 'One',
        rows: [{ label: 'first', secret: 'ROW-SECRET' }],
        layout: [{ blockType: 'cta', text: 'Go', secret: 'BLOCK-SECRET' }],
        content: richText('Card', 'RICH-SECRET'),
        meta: { note: 'n', secret: 'GROUP-SECRET' },
        links: [{ url: '/a', secret: 'LOCALE-SECRET' }],
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.doc.id;
    // The hidden values are stored (a hook or the Local API could read them), only never logged.
    const stored = await operations.findByID(createContext(t.cms, { overrideAccess: true, showHiddenFields: true }), {
      collection: 'pages',
      id,
      depth: 0,
    });
    expect(JSON.stringify(stored)).toContain('ROW-SECRET');

    const graphql = await t.request('POST', '/graphql', {
      token: admin.token,
      body: { query: `mutation { updatePage(id: ${id}, data: { rows: [{ label: "second" }], title: "Two" }) { id } }` },
    });
    expect(graphql.body.errors).toBeUndefined();

    const key = (
      await t.request('POST', '/api-keys', {
        token: admin.token,
        body: { name: 'mcp', user: admin.user.id, scopes: ['pages:*'] },
      })
    ).body.doc.key;
    const mcp = await t.request('POST', '/mcp', {
      token: key,
      headers: { accept: 'application/json, text/event-stream' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'update',
          arguments: { collection: 'pages', id, data: { content: richText('Card two'), layout: [], links: [] } },
        },
      },
    });
    expect(mcp.body.result.isError).toBeFalsy();

    const entries = (await t.request('GET', '/audit-log?sort=id&limit=100', { token: admin.token })).body.docs;
    const pageEntries = entries.filter((e: Entry) => e.collection === 'pages');
    expect(pageEntries.map((e: Entry) => e.via)).toEqual(['rest', 'graphql', 'mcp']);
    // The nested values are there, without the hidden field.
    expect(pageEntries[0].changes.rows.to).toEqual([{ id: expect.any(String), label: 'first' }]);
    expect(pageEntries[0].changes['meta.note']).toEqual({ from: null, to: 'n' });
    const log = await logged();
    for (const secret of SECRETS) expect(log).not.toContain(secret);
  });
});
