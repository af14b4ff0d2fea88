/**
 * Payload's clients unchanged (docs/payload-compatibility.md), row by row, as scenario tables against a real server. The SDK
 * itself is driven in test/http/payload-sdk.test.ts.
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const OVERRIDE = { 'X-Payload-HTTP-Method-Override': 'GET' };

/** posts: drafts; anonymous readers see published posts; editors may update only the desk's posts (`owner`). */
const config = (): UserConfig => ({
  cors: ['https://site.example'],
  collections: [
    {
      slug: 'posts',
      drafts: true,
      access: {
        read: ({ user }) => (user ? true : { status: { equals: 'published' } }),
        update: ({ user }) => (user?.role === 'admin' ? true : user ? { owner: { equals: 'desk' } } : false),
        delete: ({ user }) => user?.role === 'admin',
      },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'views', type: 'number' },
        { name: 'owner', type: 'text' },
        { name: 'author', type: 'relationship', relationTo: 'users' },
        {
          name: 'seo',
          type: 'group',
          fields: [
            { name: 'title', type: 'text' },
            { name: 'token', type: 'text', hidden: true },
          ],
        },
        { name: 'internal', type: 'text', access: { read: ({ user }) => user?.role === 'admin' } },
      ],
    },
    { slug: 'notes', access: { read: () => true, create: () => true }, fields: [{ name: 'text', type: 'text' }] },
  ],
  globals: [
    {
      slug: 'settings',
      access: { read: () => true },
      fields: [
        { name: 'siteName', type: 'text' },
        { name: 'owner', type: 'relationship', relationTo: 'users' },
      ],
    },
    { slug: 'banner', drafts: true, access: { read: () => true }, fields: [{ name: 'text', type: 'text' }] },
  ],
});

async function seed(t: TestServer) {
  const admin = await t.user('admin', 'boss@example.com');
  const post = (data: Record<string, unknown>) => t.request('POST', '/posts', { token: admin.token, body: data });
  await post({
    title: 'One',
    views: 1,
    owner: 'desk',
    status: 'published',
    seo: { title: 'S1', token: 'tok' },
    internal: 'x',
    author: admin.user.id,
  });
  await post({ title: 'Two', views: 2, owner: 'desk', status: 'published' });
  await post({ title: 'Three', views: 3, owner: 'other' });
  await t.user('editor', 'editor@example.com');
}

const adminTokens = new WeakMap<TestServer, string>();
async function admin(t: TestServer): Promise<string> {
  if (!adminTokens.has(t)) adminTokens.set(t, (await t.login('boss@example.com', 'password123')).token);
  return adminTokens.get(t)!;
}
let bannerFirstVersion = 0;
const titles = (body: any) => body.docs.map((d: any) => d.title).sort();

const countRows: Scenario[] = [
  {
    name: 'count answers { totalDocs } under the read filter (anonymous: published only)',
    method: 'GET',
    url: '/posts/count',
    status: 200,
    check: (r) => expect(r.body).toEqual({ totalDocs: 2 }),
  },
  {
    name: 'count with where',
    method: 'GET',
    url: '/posts/count?where[views][greater_than]=1',
    as: 'editor',
    status: 200,
    check: (r) => expect(r.body).toEqual({ totalDocs: 2 }),
  },
  {
    name: 'count: a field the caller may not read is unknown',
    method: 'GET',
    url: '/posts/count?where[internal][equals]=x',
    as: 'editor',
    status: 400,
    contains: ['"field":"internal"', '"path":"internal"'],
  },
  {
    name: 'count: unknown collection is a 404',
    method: 'GET',
    url: '/nothing/count',
    status: 404,
    contains: ['"errors"', 'Collection \\"nothing\\" not found.'],
    events: { '*': 0 },
  },
];

const bulkRows: Scenario[] = [
  {
    name: 'bulk PATCH without where is a 400 naming where',
    method: 'PATCH',
    url: '/posts',
    as: 'admin',
    body: { views: 9 },
    status: 400,
    contains: ['"field":"where"'],
  },
  {
    name: 'bulk DELETE without where is a 400',
    method: 'DELETE',
    url: '/posts',
    as: 'admin',
    status: 400,
    contains: ['"field":"where"'],
  },
  {
    name: 'bulk PATCH by anonymous is a 401 before the body is read',
    method: 'PATCH',
    url: '/posts?where[views][gt]=0',
    body: { views: 9 },
    status: 401,
    contains: ['"errors"', 'You must be logged in to perform this action.'],
    events: { '*': 0 },
  },
  {
    name: 'bulk PATCH changes only the matching documents the editor may update, each with its own events',
    method: 'PATCH',
    url: '/posts?where[views][less_than]=3',
    as: 'editor',
    body: { views: 5 },
    status: 200,
    events: { update: 2 },
    check: (r) => {
      expect(r.body.docs.map((d: any) => [d.title, d.views]).sort()).toEqual([
        ['One', 5],
        ['Two', 5],
      ]);
      expect(r.body.errors).toEqual([]);
      expect(r.body.message).toBe('Updated 2 of 2 documents.');
    },
  },
  {
    name: 'bulk PATCH does not reach documents outside the update filter',
    method: 'PATCH',
    url: '/posts?where[title][equals]=Three',
    as: 'editor',
    body: { views: 7 },
    status: 200,
    events: {},
    check: (r) => expect(r.body).toMatchObject({ docs: [], errors: [] }),
  },
  {
    name: 'bulk PATCH reports per-document validation failures beside the successes',
    method: 'PATCH',
    url: '/posts?where[owner][equals]=desk',
    as: 'admin',
    body: { title: '' },
    status: 200,
    events: {},
    check: (r) => {
      expect(r.body.docs).toEqual([]);
      expect(r.body.errors).toHaveLength(2);
      expect(r.body.errors[0]).toMatchObject({ id: expect.any(Number), message: expect.any(String) });
    },
  },
  {
    name: 'bulk PATCH with draft=true saves drafts only',
    method: 'PATCH',
    url: '/posts?where[title][equals]=One&draft=true',
    as: 'admin',
    body: { title: 'One (draft)' },
    status: 200,
    events: { draft: 1 },
    check: async (r, t) => {
      expect(r.body.docs[0].title).toBe('One (draft)');
      expect((await t.request('GET', '/posts/count?where[title][equals]=One')).body.totalDocs).toBe(1);
    },
  },
  {
    name: 'bulk DELETE refused outright by the rule is a 403',
    method: 'DELETE',
    url: '/posts?where[views][gt]=0',
    as: 'editor',
    status: 403,
    contains: ['"errors"', 'You are not allowed to perform this action.'],
    events: {},
  },
  {
    name: 'bulk DELETE by admin deletes each match with its own delete event',
    method: 'DELETE',
    url: '/posts?where[title][equals]=Three',
    as: 'admin',
    status: 200,
    events: { delete: 1 },
    check: (r) =>
      expect(r.body).toMatchObject({ docs: [{ title: 'Three' }], errors: [], message: 'Deleted 1 of 1 documents.' }),
  },
];

const versionRows: Scenario[] = [
  {
    name: 'GET /posts/versions lists versions of documents the editor may update (newest first, list shape)',
    method: 'GET',
    url: '/posts/versions',
    as: 'editor',
    status: 200,
    check: (r) => {
      expect(r.body).toMatchObject({ page: 1, limit: 10, hasPrevPage: false });
      const owners = new Set(r.body.docs.map((v: any) => v.version.owner));
      expect([...owners]).toEqual(['desk']);
      expect(r.body.docs[0].version._status).toBeDefined();
    },
  },
  {
    name: 'where[parent][equals] narrows to one document; _status is the record status',
    method: 'GET',
    url: '/posts/versions?where[parent][equals]=2&where[version._status][equals]=published',
    as: 'admin',
    status: 200,
    check: (r) => {
      expect(r.body.totalDocs).toBeGreaterThan(0);
      for (const v of r.body.docs) expect([v.parent, v.status]).toEqual([2, 'published']);
    },
  },
  {
    name: 'versions list: anonymous is a 401',
    method: 'GET',
    url: '/posts/versions',
    status: 401,
    contains: ['"errors"', 'You must be logged in to perform this action.'],
    events: { '*': 0 },
  },
  {
    name: 'versions list on a collection without drafts is a 400',
    method: 'GET',
    url: '/notes/versions',
    as: 'admin',
    status: 400,
    contains: ['"errors"', '\\"notes\\" does not have drafts enabled.'],
    events: { '*': 0 },
  },
  {
    name: 'versions list: unknown where field is a 400',
    method: 'GET',
    url: '/posts/versions?where[version.title][equals]=x',
    as: 'admin',
    status: 400,
    contains: ['"errors"', 'The field \\"version.title\\" does not exist.'],
    events: { '*': 0 },
  },
  {
    name: 'GET /posts/versions/:version reads one record',
    method: 'GET',
    url: '/posts/versions/1',
    as: 'admin',
    status: 200,
    check: (r) => expect(r.body).toMatchObject({ id: 1, parent: 1, version: { title: 'One' } }),
  },
  {
    name: "a version of a document outside the editor's update filter is refused",
    method: 'GET',
    url: (_t) => `/posts/versions/${3}`,
    as: 'editor',
    status: 403,
    contains: ['"errors"', 'You are not allowed to perform this action.'],
    events: { '*': 0 },
  },
  {
    name: 'an unknown version is a 404',
    method: 'GET',
    url: '/posts/versions/999',
    as: 'admin',
    status: 404,
    contains: ['"errors"', 'Version not found.'],
    events: { '*': 0 },
  },
  {
    name: "POST /posts/versions/:version restores it like the document's restore route",
    method: 'POST',
    url: '/posts/versions/1',
    as: 'admin',
    status: 200,
    events: { update: 1 },
    check: (r) =>
      expect(r.body).toMatchObject({
        message: 'Version restored.',
        doc: { id: 1, title: 'One', _status: 'published' },
      }),
  },
  {
    name: 'POST /globals/:slug/versions/:version restores a global version',
    method: 'POST',
    url: () => `/globals/banner/versions/${bannerFirstVersion}`,
    as: 'admin',
    status: 200,
    events: { update: 1 },
    setup: async (t) => {
      const token = await admin(t);
      await t.request('POST', '/globals/banner', { token, body: { text: 'First', _status: 'published' } });
      await t.request('POST', '/globals/banner', { token, body: { text: 'Second', _status: 'published' } });
      const versions = await t.request('GET', '/globals/banner/versions', { token });
      bannerFirstVersion = versions.body.docs.find((v: any) => v.version.text === 'First').id;
    },
    check: async (r, t) => {
      expect(r.body.doc.text).toBe('First');
      expect((await t.request('GET', '/globals/banner')).body.text).toBe('First');
    },
  },
];

const shapeRows: Scenario[] = [
  {
    name: 'global save answers { doc, result, message } with result the same object',
    method: 'POST',
    url: '/globals/settings',
    as: 'admin',
    body: { siteName: 'Site' },
    status: 200,
    events: { update: 1 },
    check: (r) => {
      expect(r.body.result).toEqual(r.body.doc);
      expect(r.body.doc.siteName).toBe('Site');
    },
  },
  {
    name: '_status in a body publishes',
    method: 'POST',
    url: '/posts',
    as: 'admin',
    body: { title: 'Four', _status: 'published' },
    status: 201,
    events: { create: 1, publish: 1 },
    contains: ['"status":"published"', '"_status":"published"'],
  },
  {
    name: '_status in a body must be draft or published',
    method: 'POST',
    url: '/posts',
    as: 'admin',
    body: { title: 'Bad', _status: 'live' },
    status: 400,
    contains: ['"field":"status"'],
  },
  {
    name: '_status in where and sort',
    method: 'GET',
    url: '/posts?where[_status][equals]=published&sort=-_status',
    as: 'admin',
    status: 200,
    check: (r) =>
      expect(r.body.docs.every((d: any) => d._status === 'published' && d.status === 'published')).toBe(true),
  },
  {
    name: 'no _status on collections without drafts',
    method: 'GET',
    url: '/notes',
    // A note to list: an empty list would hold no _status whatever the rule.
    setup: async (t) => void (await t.request('POST', '/notes', { body: { text: 'a note' } })),
    status: 200,
    contains: ['"text":"a note"'],
    notContains: ['_status'],
  },
  {
    name: 'select[field]=true returns only those fields plus id; _status selects both status names',
    method: 'GET',
    url: '/posts/1?select[title]=true&select[_status]=true&select[seo][title]=true',
    as: 'admin',
    status: 200,
    check: (r) =>
      expect(r.body).toEqual({ id: 1, title: 'One', status: 'published', _status: 'published', seo: { title: 'S1' } }),
  },
  {
    name: 'select[field]=false leaves those fields out',
    method: 'GET',
    url: '/posts?where[title][equals]=One&select[author]=false&select[seo]=false',
    as: 'admin',
    status: 200,
    check: (r) => {
      expect(r.body.docs[0].title).toBe('One');
      expect('author' in r.body.docs[0] || 'seo' in r.body.docs[0]).toBe(false);
    },
  },
  {
    name: 'select of a hidden field is unknown (400 naming it)',
    method: 'GET',
    url: '/posts?select[seo.token]=true',
    as: 'admin',
    status: 400,
    contains: ['"field":"seo.token"'],
  },
  {
    name: 'select of a field the caller may not read is unknown',
    method: 'GET',
    url: '/posts?select[internal]=true',
    as: 'editor',
    status: 400,
    contains: ['"field":"internal"'],
  },
  {
    name: 'select of an unknown field is a 400',
    method: 'GET',
    url: '/posts?select[nope]=true',
    as: 'editor',
    status: 400,
    contains: ['"field":"nope"'],
  },
  {
    name: 'select mixing true and false is a 400',
    method: 'GET',
    url: '/posts?select[title]=true&select[views]=false',
    as: 'editor',
    status: 400,
    contains: ['"field":"select"'],
  },
  {
    name: 'populate[users][email]=true narrows populated users',
    method: 'GET',
    url: '/posts/1?populate[users][email]=true&select[author]=true',
    as: 'admin',
    status: 200,
    check: (r) => expect(r.body).toEqual({ id: 1, author: { id: 1, email: 'boss@example.com' } }),
  },
  {
    name: 'populate of a collection that does not exist is a 400',
    method: 'GET',
    url: '/posts?populate[nothing][x]=true',
    as: 'admin',
    status: 400,
    contains: ['"field":"populate"'],
  },
  {
    name: 'populate of a field the caller may not read is a 400',
    method: 'GET',
    url: '/posts?populate[posts][internal]=true',
    as: 'editor',
    status: 400,
    contains: ['"field":"internal"'],
  },
  {
    name: 'pagination=false returns every match in one answer and ignores limit',
    method: 'GET',
    url: '/posts?pagination=false&limit=1000',
    as: 'admin',
    status: 200,
    check: (r) => {
      expect(r.body.docs.length).toBe(r.body.totalDocs);
      expect(r.body.totalDocs).toBeGreaterThan(1);
      expect(r.body).toMatchObject({ totalPages: 1, page: 1, hasNextPage: false, limit: r.body.totalDocs });
    },
  },
  {
    name: 'limit outside 1–100 stays a 400 with pagination',
    method: 'GET',
    url: '/posts?limit=1000',
    as: 'admin',
    status: 400,
    contains: ['"field":"limit"', '"path":"limit"'],
  },
];

const overrideRows: Scenario[] = [
  {
    name: 'override on the list: urlencoded qs body is the query, merged over the URL',
    method: 'POST',
    url: '/posts?limit=1',
    as: 'admin',
    headers: { ...OVERRIDE, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'where[views][greater_than]=1&sort=views',
    status: 200,
    events: {},
    check: (r) => expect(r.body).toMatchObject({ limit: 1, totalDocs: 2, docs: [{ title: 'Two' }] }),
  },
  {
    name: 'override on the list: JSON body, X-HTTP-Method-Override',
    method: 'POST',
    url: '/posts',
    as: 'admin',
    headers: { 'X-HTTP-Method-Override': 'GET' },
    body: { where: { title: { equals: 'Two' } }, depth: 0 },
    status: 200,
    events: {},
    check: (r) => expect(titles(r.body)).toEqual(['Two']),
  },
  {
    name: 'override never writes: a document-shaped body on the list is a read',
    method: 'POST',
    url: '/posts',
    as: 'admin',
    headers: OVERRIDE,
    body: { title: 'Not created' },
    status: 200,
    events: {},
    check: async (_r, t) =>
      expect(
        (await t.request('GET', '/posts/count?where[title][equals]=Not created', { token: await admin(t) })).body
          .totalDocs,
      ).toBe(0),
  },
  {
    name: 'override on a document merges data unsaved, populated to depth, under read access',
    method: 'POST',
    url: '/posts/2',
    as: 'admin',
    headers: OVERRIDE,
    body: { data: { title: 'Unsaved', author: 1, unknown: 1 }, depth: 1 },
    status: 200,
    events: {},
    check: async (r, t) => {
      expect(r.body).toMatchObject({ id: 2, title: 'Unsaved', author: { email: 'boss@example.com' } });
      expect(r.body.unknown).toBeUndefined();
      expect((await t.request('GET', '/posts/2')).body.title).toBe('Two');
    },
  },
  {
    name: 'override on a document the read filter hides is a 404',
    method: 'POST',
    url: '/posts/3',
    headers: OVERRIDE,
    body: { data: { title: 'x' } },
    status: 404,
    contains: ['"errors"', 'Document not found.'],
    events: { '*': 0 },
  },
  {
    name: 'override on a global merges data without saving',
    method: 'POST',
    url: '/globals/settings',
    headers: OVERRIDE,
    body: { data: { siteName: 'Preview' } },
    status: 200,
    events: {},
    check: async (r, t) => {
      expect(r.body.siteName).toBe('Preview');
      expect((await t.request('GET', '/globals/settings')).body.siteName).toBe('Site');
    },
  },
  {
    name: 'override read by a cookie session needs no CSRF token (it is a read)',
    method: 'POST',
    url: '/posts/1',
    as: 'cookie:editor',
    headers: { ...OVERRIDE, 'x-csrf-token': '' },
    body: {},
    status: 200,
    contains: ['"id":1', '"title":"One"'],
    events: {},
  },
  {
    name: 'override to anything but GET is a 400 and runs nothing',
    method: 'POST',
    url: '/posts',
    as: 'admin',
    headers: { 'X-HTTP-Method-Override': 'DELETE' },
    body: { title: 'x' },
    status: 400,
    contains: ['"errors"', 'Only GET can be asked for with a method-override header.'],
    events: {},
  },
  {
    name: 'override on a path without GET is a 405',
    method: 'POST',
    url: '/users/logout',
    headers: OVERRIDE,
    status: 405,
    contains: ['"errors"', 'Method Not Allowed'],
    events: { '*': 0 },
  },
  {
    name: 'override on POST /media lists media',
    method: 'POST',
    url: '/media',
    headers: OVERRIDE,
    body: {},
    status: 200,
    events: { '*': 0 },
    contains: ['"docs":[]'],
  },
  {
    name: 'CORS preflight allows both override headers',
    method: 'OPTIONS',
    url: '/posts',
    headers: { origin: 'https://site.example', 'access-control-request-method': 'POST' },
    status: 204,
    check: (r) => {
      const allowed = r.headers.get('access-control-allow-headers') ?? '';
      expect(allowed).toContain('x-payload-http-method-override');
      expect(allowed).toContain('x-http-method-override');
    },
  },
];

const authRows: Scenario[] = [
  {
    name: 'Authorization: JWT <token> is the same as Bearer',
    method: 'GET',
    url: '/users/init',
    status: 200,
    check: async (_r, t) => {
      const me = await t.request('GET', '/users/me', { headers: { authorization: `JWT ${await admin(t)}` } });
      expect(me.body.user.email).toBe('boss@example.com');
      const write = await t.request('POST', '/notes', {
        headers: { authorization: `JWT ${await admin(t)}` },
        body: { text: 'by JWT' },
      });
      expect(write.status).toBe(201);
    },
  },
  {
    name: 'Authorization: users API-Key <key> is the same as Bearer; an unknown key is a 401, never anonymous',
    method: 'GET',
    url: '/users/init',
    status: 200,
    check: async (_r, t) => {
      const created = await t.request('POST', '/api-keys', {
        token: await admin(t),
        body: { name: 'k', user: 1, scopes: ['posts:read'] },
      });
      const me = await t.request('GET', '/posts/count', {
        headers: { authorization: `users API-Key ${created.body.key}` },
      });
      expect(me.body).toEqual({ totalDocs: 3 });
      expect(
        (await t.request('GET', '/posts', { headers: { authorization: 'users API-Key cms_unknown' } })).status,
      ).toBe(401);
    },
  },
  {
    name: 'init answers hasUsers and initialized',
    method: 'GET',
    url: '/users/init',
    status: 200,
    check: (r) => expect(r.body).toEqual({ hasUsers: true, initialized: true }),
  },
  {
    name: 'refresh-token without a session is a 401',
    method: 'POST',
    url: '/users/refresh-token',
    status: 401,
    contains: ['"errors"', 'A valid session is required to refresh it.'],
    events: { '*': 0 },
  },
  {
    name: 'refresh-token by cookie renews the cookie',
    method: 'POST',
    url: '/users/refresh-token',
    as: 'cookie:editor',
    status: 200,
    events: { '*': 0 },
    check: (r) => {
      expect(r.body).toMatchObject({
        user: { email: expect.any(String) },
        refreshedToken: expect.any(String),
        exp: expect.any(Number),
      });
      expect(r.headers.get('set-cookie')).toContain('cms-session=');
    },
  },
  {
    name: 'refresh-token by cookie without the CSRF token is a 403 (our CSRF rule stands)',
    method: 'POST',
    url: '/users/refresh-token',
    as: 'cookie:editor',
    headers: { 'x-csrf-token': 'wrong' },
    status: 403,
    contains: ['"errors"', 'Missing or invalid CSRF token.'],
    events: { '*': 0 },
  },
  {
    name: 'unlock: anonymous is a 401',
    method: 'POST',
    url: '/users/unlock',
    body: { email: 'x@example.com' },
    status: 401,
    contains: ['"errors"', 'You must be logged in to perform this action.'],
    events: { '*': 0 },
  },
  {
    name: 'unlock: an editor is a 403',
    method: 'POST',
    url: '/users/unlock',
    as: 'editor',
    body: { email: 'x@example.com' },
    status: 403,
    contains: ['"errors"', 'Only admins can unlock a login.'],
    events: { '*': 0 },
  },
  {
    name: 'unlock: an email is required',
    method: 'POST',
    url: '/users/unlock',
    as: 'admin',
    body: {},
    status: 400,
    contains: ['"field":"email"', '"path":"email"'],
  },
  {
    name: 'unlock lifts the login lock of that email',
    method: 'POST',
    url: '/users/unlock',
    as: 'admin',
    body: { email: 'Editor@Example.com' },
    status: 200,
    events: { '*': 0 },
    setup: async (t) => {
      for (let i = 0; i < 6; i++)
        await t.request('POST', '/users/login', { body: { email: 'editor@example.com', password: 'wrong-password' } });
      expect(
        (await t.request('POST', '/users/login', { body: { email: 'editor@example.com', password: 'password123' } }))
          .status,
      ).toBe(429);
    },
    check: async (_r, t) =>
      expect(
        (await t.request('POST', '/users/login', { body: { email: 'editor@example.com', password: 'password123' } }))
          .status,
      ).toBe(200),
  },
  {
    name: 'validation errors carry path = field',
    method: 'POST',
    url: '/posts',
    as: 'admin',
    body: { title: '' },
    status: 400,
    contains: ['"field":"title"', '"path":"title"'],
  },
];

runScenarios('Payload clients: count', config, countRows, { seed });
runScenarios('Payload clients: bulk writes', config, bulkRows, { seed });
runScenarios("Payload clients: versions at Payload's paths", config, versionRows, {
  async seed(t) {
    await seed(t);
    // An editor's post gets a second version, so the list has more than one per document.
    await t.request('PATCH', '/posts/2', { token: await admin(t), body: { views: 20, _status: 'published' } });
  },
});
runScenarios('Payload clients: answers, _status, select, populate, pagination', config, shapeRows, {
  seed,
});
runScenarios('Payload clients: method override', config, overrideRows, {
  async seed(t) {
    await seed(t);
    await t.request('POST', '/globals/settings', { token: await admin(t), body: { siteName: 'Site' } });
  },
});
runScenarios('Payload clients: auth forms, refresh, unlock, init, error paths', config, authRows, {
  seed,
});
