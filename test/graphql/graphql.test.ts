/**
 * GraphQL at <api>/graphql (docs/graphql.md) as scenario tables: Payload's names, the same operations as
 * REST (access, field access, hooks, drafts, validation, events), the safety rules (limits before
 * running, POST-only mutations, CSRF for cookie sessions, no stacks), the response cache, and the
 * batched loading of relationships counted in real statements. Runs on the engine of the suite's pass.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { runScenarios, startTestServer, type Scenario, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { statementsDuring } from '../support/statements.ts';

const readCalls = { posts: 0 };
const CONFIG: UserConfig = {
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  graphQL: { maxComplexity: 60, maxDepth: 4, maxAliases: 5, maxBatch: 3 },
  collections: [
    {
      slug: 'posts',
      drafts: true,
      access: {
        read: ({ user }) => (user ? true : { status: { equals: 'published' } }),
        create: ({ user }) => Boolean(user),
        update: ({ user }) => Boolean(user),
        delete: ({ user }) => Boolean(user),
      },
      hooks: { afterRead: [({ doc }) => (readCalls.posts++, doc)] },
      fields: [
        { name: 'title', type: 'text', required: true, localized: true },
        { name: 'slug', type: 'text', unique: true },
        { name: 'category', type: 'select', options: ['news', 'tech'] },
        { name: 'views', type: 'number' },
        { name: 'author', type: 'relationship', relationTo: 'users' },
        { name: 'seo', type: 'group', fields: [{ name: 'title', type: 'text' }] },
        { name: 'links', type: 'array', fields: [{ name: 'url', type: 'text' }] },
        { name: 'meta', type: 'json' },
        { name: 'internalNote', type: 'text', hidden: true },
        { name: 'adminNote', type: 'text', access: { read: ({ user }) => user?.role === 'admin' } },
      ],
    },
    {
      slug: 'articles',
      labels: { singular: 'Story', plural: 'Stories' },
      access: { read: () => true },
      fields: [{ name: 'headline', type: 'text' }],
    },
    {
      slug: 'boom',
      access: { read: () => true },
      hooks: {
        afterRead: [
          () => {
            throw new Error('secret internals at /srv/app.ts:12');
          },
        ],
      },
      fields: [{ name: 'x', type: 'text' }],
    },
  ],
  globals: [
    { slug: 'settings', access: { read: () => true }, fields: [{ name: 'siteName', type: 'text' }] },
    {
      slug: 'banner',
      drafts: true,
      access: { read: () => true, update: ({ user }) => Boolean(user) },
      fields: [{ name: 'text', type: 'text' }],
    },
  ],
};

const gql = (query: string, variables?: Record<string, unknown>) => ({ query, variables });
const seedPost = async (t: TestServer) => {
  const admin = await t.user('admin');
  const res = await t.request('POST', '/posts', {
    token: admin.token,
    body: {
      title: 'Hello world',
      slug: 'hello',
      category: 'news',
      views: 3,
      author: admin.user.id,
      status: 'published',
      internalNote: 'x',
      adminNote: 'only admins',
      seo: { title: 'SEO' },
      links: [{ url: 'https://a.example' }],
    },
  });
  if (res.status !== 201) throw new Error(res.text);
  await t.request('POST', '/posts', { token: admin.token, body: { title: 'Draft only', slug: 'draft' } });
};

const scenarios: Scenario[] = [
  {
    name: "introspection lists Payload's names, labels overriding them",
    method: 'POST',
    url: '/graphql',
    body: gql('{ __schema { queryType { fields { name } } mutationType { fields { name } } } }'),
    status: 200,
    events: { '*': 0 },
    contains: [
      '"Post"',
      '"Posts"',
      '"countPosts"',
      '"versionPost"',
      '"versionsPosts"',
      '"Story"',
      '"Stories"',
      '"countStories"',
      '"Settings"',
      '"meUser"',
      '"initializedUser"',
      '"createPost"',
      '"updatePost"',
      '"deletePost"',
      '"duplicatePost"',
      '"restoreVersionPost"',
      '"updateSettings"',
      '"loginUser"',
      '"logoutUser"',
      '"refreshTokenUser"',
      '"forgotPasswordUser"',
      '"resetPasswordUser"',
      '"unlockUser"',
    ],
    notContains: ['"Article"', '"Articles"'],
  },
  {
    name: 'anonymous list: the read filter applies, hidden and denied fields stay out, where by Payload operators',
    method: 'POST',
    url: '/graphql',
    status: 200,
    events: { '*': 0 },
    body: gql(
      '{ Posts(where: { title: { like: "hello" }, views: { greater_than: 1 }, seo__title: { equals: "SEO" } }) { docs { title category views adminNote seo { title } links { url } } totalDocs pagingCounter hasNextPage } countPosts { totalDocs } }',
    ),
    contains: [
      '"title":"Hello world"',
      '"category":"news"',
      '"adminNote":null',
      '"seo":{"title":"SEO"}',
      '"totalDocs":1',
      '"pagingCounter":1',
      '"countPosts":{"totalDocs":1}',
    ],
    notContains: ['Draft only', 'only admins'],
  },
  {
    name: 'an admin sees the draft and the admin-only field; AND/OR combine',
    method: 'POST',
    url: '/graphql',
    as: 'admin',
    status: 200,
    events: { '*': 0 },
    body: gql(
      '{ Posts(draft: true, sort: "slug", where: { OR: [{ slug: { equals: "draft" } }, { AND: [{ category: { equals: news } }, { views: { less_than_equal: 3 } }] }] }) { docs { slug _status adminNote } totalDocs } }',
    ),
    contains: ['"slug":"draft","_status":"draft"', '"adminNote":"only admins"', '"totalDocs":2'],
  },
  {
    name: 'a hidden field is not in the schema',
    method: 'POST',
    url: '/graphql',
    as: 'admin',
    status: 200,
    events: { '*': 0 },
    body: gql('{ Posts { docs { internalNote } } }'),
    contains: ['Cannot query field \\"internalNote\\"', '"statusCode":400'],
  },
  {
    name: 'relationships resolve to documents under read access: anonymous readers get null',
    method: 'POST',
    url: '/graphql',
    status: 200,
    events: { '*': 0 },
    body: gql('{ Posts { docs { author { email } } } }'),
    contains: ['"author":null'],
  },
  {
    name: 'a signed-in reader gets the related document',
    method: 'POST',
    url: '/graphql',
    as: 'editor',
    status: 200,
    events: { '*': 0 },
    body: gql('{ Posts(where: { slug: { equals: "hello" } }) { docs { author { id email } } } }'),
    contains: ['"email":"admin-'],
  },
  {
    name: 'locale argument reads another locale (fallback to the default)',
    method: 'POST',
    url: '/graphql',
    status: 200,
    events: { '*': 0 },
    body: gql('{ Posts(locale: de, fallbackLocale: en) { docs { title } } }'),
    contains: ['"title":"Hello world"'],
  },
  {
    name: 'GET runs a query',
    method: 'GET',
    url: `/graphql?query=${encodeURIComponent('{ Settings { siteName } }')}`,
    status: 200,
    contains: ['"Settings":{"siteName":null}'],
  },
  {
    name: 'GET never runs a mutation',
    method: 'GET',
    url: `/graphql?query=${encodeURIComponent('mutation { updateSettings(data: { siteName: "x" }) { siteName } }')}`,
    as: 'admin',
    status: 405,
    contains: ['Mutations need POST.'],
    events: {},
  },
  {
    name: 'create by bearer runs the create operation (events, validation passed)',
    method: 'POST',
    url: '/graphql',
    as: 'editor',
    status: 200,
    events: { create: 1 },
    body: gql('mutation($d: mutationPost!) { createPost(data: $d, locale: en) { id title _status } }', {
      d: { title: 'From GraphQL', slug: 'gql' },
    }),
    contains: ['"title":"From GraphQL"', '"_status":"draft"'],
  },
  {
    name: "_status is Payload's enum in writes and filters (the quoted form is taken too)",
    method: 'POST',
    url: '/graphql',
    as: 'editor',
    status: 200,
    events: { create: 2, publish: 2 },
    body: gql(
      'mutation { a: createPost(data: { title: "Enum", slug: "enum", _status: published }) { _status } b: createPost(data: { title: "Quoted", slug: "quoted", status: "published" }) { status } }',
    ),
    contains: ['"a":{"_status":"published"}', '"b":{"status":"published"}'],
    check: async (_res, t) => {
      const found = await t.request('POST', '/graphql', {
        body: gql(
          '{ Posts(where: { _status: { equals: published }, slug: { in: ["enum", "quoted"] } }) { totalDocs } }',
        ),
      });
      expect(found.text).toContain('"totalDocs":2');
      const types = await t.request('POST', '/graphql', {
        body: gql('{ __type(name: "mutationPost") { inputFields { name type { name kind } } } }'),
      });
      expect(types.text).toContain(
        '"name":"_status","type":{"name":"mutationPost__status_MutationInput","kind":"ENUM"}',
      );
    },
  },
  {
    name: 'create by cookie without the CSRF token is refused before anything runs',
    method: 'POST',
    url: '/graphql',
    as: 'cookie:editor',
    headers: { 'x-csrf-token': 'wrong' },
    status: 403,
    events: {},
    body: gql('mutation { createPost(data: { title: "csrf" }) { id } }'),
    contains: ['CSRF'],
  },
  {
    name: 'create by cookie with the CSRF token works',
    method: 'POST',
    url: '/graphql',
    as: 'cookie:editor',
    status: 200,
    events: { create: 1 },
    body: gql('mutation { createPost(data: { title: "with csrf", slug: "csrf" }) { id } }'),
    contains: ['"createPost":{"id":'],
  },
  {
    name: 'a query by cookie needs no CSRF token',
    method: 'POST',
    url: '/graphql',
    as: 'cookie:editor',
    headers: { 'x-csrf-token': '' },
    status: 200,
    events: { '*': 0 },
    body: gql('{ countPosts { totalDocs } }'),
    contains: ['{"data":{"countPosts":{"totalDocs":'],
    notContains: ['"errors"'],
  },
  {
    name: 'an anonymous create is a resolver error: HTTP 200, statusCode 401, data null',
    method: 'POST',
    url: '/graphql',
    status: 200,
    events: {},
    body: gql('mutation { createPost(data: { title: "nobody" }) { id } }'),
    contains: ['"statusCode":401', '"path":["createPost"]', '"data":{"createPost":null}'],
  },
  {
    name: 'validation errors name the field, as REST does',
    method: 'POST',
    url: '/graphql',
    as: 'editor',
    status: 200,
    events: {},
    body: gql('mutation { createPost(data: { slug: "no-title", title: "" }, draft: false) { id } }'),
    contains: ['"statusCode":400', '"field":"title"'],
  },
  {
    name: 'an unknown id is a 404 in extensions',
    method: 'POST',
    url: '/graphql',
    status: 200,
    events: { '*': 0 },
    body: gql('{ Post(id: 9999) { id } }'),
    contains: ['"statusCode":404', '"Post":null'],
  },
  {
    name: 'an unexpected error is reported without details or stack',
    method: 'POST',
    url: '/graphql',
    as: 'admin',
    status: 200,
    events: { '*': 0 },
    setup: async (t) =>
      void (await t.cms.store.run('INSERT INTO "boom" ("x", "createdAt", "updatedAt") VALUES (?, ?, ?)', [
        '1',
        '2026-01-01T00:00:00.000Z',
        '2026-01-01T00:00:00.000Z',
      ])),
    body: gql('{ Booms { docs { x } } }'),
    contains: ['Something went wrong.', '"statusCode":500'],
    notContains: ['secret internals', 'app.ts', 'stack'],
  },
  {
    name: 'too complex: refused before running (no read hook ran)',
    method: 'POST',
    url: '/graphql',
    status: 200,
    events: { '*': 0 },
    setup: () => void (readCalls.posts = 0),
    body: gql(
      `{ ${Array.from({ length: 5 }, (_, i) => `p${i}: Posts { docs { title author { email } } }`).join(' ')} }`,
    ),
    contains: ['too complex: 70, at most 60'],
    check: () => expect(readCalls.posts).toBe(0),
  },
  {
    name: 'too deep: refused before running',
    method: 'POST',
    url: '/graphql',
    as: 'admin',
    status: 200,
    events: { '*': 0 },
    body: gql('{ versionsPosts { docs { parent { author { email } } } } }'),
    contains: ['too deep: 5 levels, at most 4'],
  },
  {
    name: 'aliases are bounded',
    method: 'POST',
    url: '/graphql',
    status: 200,
    events: { '*': 0 },
    body: gql(`{ ${Array.from({ length: 6 }, (_, i) => `c${i}: countPosts { totalDocs }`).join(' ')} }`),
    contains: ['too many aliases'],
  },
  {
    name: 'batches run in order and are bounded',
    method: 'POST',
    url: '/graphql',
    status: 200,
    events: { '*': 0 },
    body: [gql('{ countPosts { totalDocs } }'), gql('{ Settings { siteName } }')],
    contains: ['[{"data":{"countPosts"', '{"data":{"Settings"'],
  },
  {
    name: 'a batch over the limit is refused',
    method: 'POST',
    url: '/graphql',
    status: 400,
    body: Array.from({ length: 4 }, () => gql('{ countPosts { totalDocs } }')),
    contains: ['A batch holds 1 to 3 operations.'],
  },
  {
    name: 'a syntax error comes in the same shape, statusCode 400',
    method: 'POST',
    url: '/graphql',
    status: 200,
    events: { '*': 0 },
    body: gql('{ Posts { '),
    contains: ['"errors":[{"message":"Syntax Error', '"statusCode":400'],
  },
  {
    name: 'a client of the GraphQL-over-HTTP media type gets 400 for a query that cannot run',
    method: 'POST',
    url: '/graphql',
    status: 400,
    headers: { accept: 'application/graphql-response+json' },
    body: gql('{ nope }'),
    contains: ['Cannot query field', '"statusCode":400'],
    check: (res) => expect(res.headers.get('content-type')).toContain('application/graphql-response+json'),
  },
  {
    name: 'a body without a query is a 400',
    method: 'POST',
    url: '/graphql',
    status: 400,
    body: { variables: {} },
    contains: ['A query is required.'],
  },
  {
    name: 'other methods are 405',
    method: 'DELETE',
    url: '/graphql',
    status: 405,
    contains: ['"errors"', 'Method Not Allowed'],
  },
];

runScenarios('GraphQL', CONFIG, scenarios, { seed: seedPost });

runScenarios(
  'GraphQL turned off',
  { graphQL: { disable: true } },
  [
    {
      name: 'the endpoint is gone',
      method: 'POST',
      url: '/graphql',
      body: gql('{ meUser { user { id } } }'),
      status: 404,
      contains: ['"errors"', 'Collection \\"graphql\\" not found.'],
      notContains: ['"data"'],
    },
  ],
  {},
);

describe('GraphQL reads, writes and the response cache', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    t = await startTestServer(CONFIG);
    await seedPost(t);
    token = (await t.user('admin')).token;
  });
  afterAll(() => t?.stop());

  const post = (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    t.request('POST', '/graphql', { body: gql(query, variables), token, headers });

  test('REST and GraphQL answer the same documents', async () => {
    const rest = await t.request('GET', '/posts?depth=0&sort=id&limit=5&draft=true', { token });
    const graph = await post(
      '{ Posts(sort: "id", limit: 5, draft: true) { docs { id title slug category views author { id } createdAt updatedAt _status } totalDocs totalPages } }',
    );
    const docs = graph.body.data.Posts.docs;
    expect(docs.map((d: any) => ({ ...d, author: d.author?.id ?? null }))).toEqual(
      rest.body.docs.map((d: any) => ({
        id: d.id,
        title: d.title,
        slug: d.slug,
        category: d.category ?? null,
        views: d.views ?? null,
        author: d.author ?? null,
        createdAt: d.createdAt,
        updatedAt: d.updatedAt,
        _status: d._status,
      })),
    );
    expect(graph.body.data.Posts.totalDocs).toBe(rest.body.totalDocs);
  });

  test('a repeated query is answered from the cache, and any write makes it fresh', async () => {
    const query = '{ Posts(where: { slug: { equals: "hello" } }) { docs { title } } }';
    await post(query);
    readCalls.posts = 0;
    const again = await post(query);
    expect(again.body.data.Posts.docs[0].title).toBe('Hello world');
    expect(readCalls.posts).toBe(0);
    const id = (await post('{ Posts(where: { slug: { equals: "hello" } }) { docs { id } } }')).body.data.Posts.docs[0]
      .id;
    const updated = await post('mutation($id: Int!) { updatePost(id: $id, data: { title: "Changed" }) { title } }', {
      id,
    });
    expect(updated.body).toEqual({ data: { updatePost: { title: 'Changed' } } });
    const fresh = await post(query);
    expect(fresh.body.data.Posts.docs[0].title).toBe('Changed');
    expect(readCalls.posts).toBeGreaterThan(0);
  });

  test('a POSTed query is kept under its body: other variables, another spelling, another answer or entry', async () => {
    const query = 'query($slug: String) { Posts(draft: true, where: { slug: { equals: $slug } }) { docs { slug } } }';
    const slugs = async (body: string) => {
      const res = await t.fetch('/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body,
      });
      return (await res.json()).data.Posts.docs.map((d: any) => d.slug);
    };
    const hello = JSON.stringify({ query, variables: { slug: 'hello' } });
    const draft = JSON.stringify({ query, variables: { slug: 'draft' } });
    // The same query and variables, spelled with other spaces and key order.
    const respelled = `{ "variables" : {"slug":"hello"}, "query": ${JSON.stringify(query)} }`;
    expect(await slugs(hello)).toEqual(['hello']);
    expect(await slugs(draft)).toEqual(['draft']);
    readCalls.posts = 0;
    expect(await slugs(hello)).toEqual(['hello']);
    expect(await slugs(draft)).toEqual(['draft']);
    expect(readCalls.posts).toBe(0);
    expect(await slugs(respelled)).toEqual(['hello']);
    expect(readCalls.posts).toBe(1);
  });

  test('a repeated GET query is answered from the cache, however its query string is spelled', async () => {
    const query = '{ Posts(where: { slug: { equals: "hello" } }) { docs { slug } } }';
    const get = (search: string) => t.request('GET', `/graphql?${search}`, { token });
    const first = await get(`query=${encodeURIComponent(query)}`);
    expect(first.body.data.Posts.docs[0].slug).toBe('hello');
    readCalls.posts = 0;
    const again = await get(`query=${encodeURIComponent(query)}&`);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(readCalls.posts).toBe(0);
  });

  test('callers never share a kept answer', async () => {
    const query = '{ Posts(draft: true, where: { slug: { equals: "draft" } }) { docs { slug } } }';
    expect((await post(query)).body.data.Posts.docs).toHaveLength(1);
    const anonymous = await t.request('POST', '/graphql', { body: gql(query) });
    expect(anonymous.body.data.Posts.docs).toHaveLength(0);
  });

  test('duplicate, versions and restore go through the version operations', async () => {
    const created = await post(
      'mutation { createPost(data: { title: "v1", slug: "ver", _status: "published" }) { id } }',
    );
    const id = created.body.data.createPost.id;
    await post('mutation($id: Int!) { updatePost(id: $id, data: { title: "v2" }) { title } }', { id });
    const versions = await post(
      'query($id: Float) { versionsPosts(where: { parent: { equals: $id } }, sort: "createdAt") { docs { id version { title } parent { id } } totalDocs } }',
      { id },
    );
    expect(versions.body.errors).toBeUndefined();
    const docs = versions.body.data.versionsPosts.docs;
    expect(docs.map((d: any) => d.version.title)).toEqual(['v1', 'v2']);
    expect(docs[0].parent.id).toBe(id);
    const restored = await post('mutation($v: Int!) { restoreVersionPost(id: $v) { title } }', { v: docs[0].id });
    expect(restored.body.data.restoreVersionPost.title).toBe('v1');
    const copy = await post('mutation($id: Int!) { duplicatePost(id: $id) { id title slug _status } }', { id });
    expect(copy.body.data.duplicatePost).toMatchObject({ title: 'v1', slug: 'ver - Copy', _status: 'draft' });
  });

  test('global versions take where, sort, limit and page like the collection versions', async () => {
    for (const [text, status] of [
      ['one', 'published'],
      ['two', 'draft'],
      ['three', 'published'],
    ]) {
      const saved = await post(
        `mutation { updateBanner(data: { text: "${text}", _status: ${status} }${status === 'draft' ? ', draft: true' : ''}) { text } }`,
      );
      expect(saved.body.errors).toBeUndefined();
    }
    const texts = async (args: string) => {
      const res = await post(`{ versionsBanner${args} { docs { version { text } } totalDocs page totalPages } }`);
      expect(res.body.errors).toBeUndefined();
      const list = res.body.data.versionsBanner;
      return { texts: list.docs.map((d: any) => d.version.text), totalDocs: list.totalDocs, page: list.page };
    };
    expect(await texts('')).toEqual({ texts: ['three', 'two', 'one'], totalDocs: 3, page: 1 });
    expect(await texts('(sort: "createdAt")')).toEqual({ texts: ['one', 'two', 'three'], totalDocs: 3, page: 1 });
    expect(await texts('(where: { status: { equals: "published" } })')).toEqual({
      texts: ['three', 'one'],
      totalDocs: 2,
      page: 1,
    });
    expect(
      await texts('(where: { OR: [{ status: { equals: "draft" } }, { latest: { equals: true } }] }, sort: "-id")'),
    ).toEqual({ texts: ['three', 'two'], totalDocs: 2, page: 1 });
    expect(await texts('(limit: 1, page: 2, sort: "id")')).toEqual({ texts: ['two'], totalDocs: 3, page: 2 });
    const wrong = await post('{ versionsBanner(sort: "nope") { totalDocs } }');
    expect(wrong.body.errors[0].extensions.statusCode).toBe(400);
  });

  test('login, me and logout through GraphQL', async () => {
    await t.user('editor', 'gql-login@example.com', 'password123');
    const login = await t.request('POST', '/graphql', {
      body: gql(
        'mutation { loginUser(email: "gql-login@example.com", password: "password123") { token exp user { email } } }',
      ),
    });
    expect(login.body.data.loginUser.user.email).toBe('gql-login@example.com');
    expect(login.headers.getSetCookie().some((c) => c.startsWith('cms-session='))).toBe(true);
    const session = login.body.data.loginUser.token;
    const me = await t.request('POST', '/graphql', {
      token: session,
      body: gql('{ meUser { user { email } exp token } initializedUser }'),
    });
    expect(me.body.data.meUser).toMatchObject({ user: { email: 'gql-login@example.com' }, token: session });
    expect(me.body.data.initializedUser).toBe(true);
    const wrong = await t.request('POST', '/graphql', {
      body: gql('mutation { loginUser(email: "gql-login@example.com", password: "nope") { token } }'),
    });
    expect(wrong.body.errors[0].extensions.statusCode).toBe(401);
    await t.request('POST', '/graphql', { token: session, body: gql('mutation { logoutUser }') });
    const after = await t.request('POST', '/graphql', { token: session, body: gql('{ meUser { user { email } } }') });
    expect(after.body.data.meUser.user).toBeNull();
  });

  test('a list of 100 posts selecting their author reads the authors in one statement', async () => {
    const authors = [];
    for (let i = 0; i < 5; i++) authors.push((await t.user('editor')).user.id);
    for (let i = 0; i < 100; i++) {
      await t.request('POST', '/posts', {
        token,
        body: { title: `Bulk ${i}`, slug: `bulk-${i}`, author: authors[i % 5], status: 'published' },
      });
    }
    const statements = await statementsDuring(t, async () => {
      const res = await post(
        '{ Posts(limit: 100, where: { slug: { like: "bulk" } }) { docs { title author { email } } } }',
        undefined,
        { 'x-uncached': String(Math.random()) },
      );
      expect(res.body.data.Posts.docs).toHaveLength(100);
      expect(res.body.data.Posts.docs.every((d: any) => typeof d.author.email === 'string')).toBe(true);
    });
    const onUsers = statements.filter((sql) => /FROM "users"/.test(sql));
    expect(onUsers).toHaveLength(1);
  });
});

runScenarios(
  'GraphQL over the content model: blocks as unions, radio, code, point, layout fields flattened',
  {
    collections: [
      {
        slug: 'pages',
        access: { read: () => true, create: () => true },
        fields: [
          { name: 'kind', type: 'radio', options: ['landing', 'article'] },
          { name: 'snippet', type: 'code' },
          { name: 'where', type: 'point' },
          {
            type: 'row',
            fields: [
              { name: 'left', type: 'text' },
              { name: 'right', type: 'text' },
            ],
          },
          {
            name: 'layout',
            type: 'blocks',
            blocks: [
              { slug: 'hero', fields: [{ name: 'heading', type: 'text' }] },
              {
                slug: 'call-to-action',
                interfaceName: 'CTA',
                fields: [
                  { name: 'link', type: 'text' },
                  { name: 'author', type: 'relationship', relationTo: 'users' },
                ],
              },
            ],
          },
        ],
      } as never,
    ],
  },
  [
    {
      name: 'blocks read through inline fragments, radio as an enum, point as JSON, row fields at their level',
      method: 'POST',
      url: '/graphql',
      status: 200,
      events: { '*': 0 },
      setup: async (t) => {
        const res = await t.request('POST', '/pages', {
          body: {
            kind: 'landing',
            snippet: 'x = 1',
            where: [13.4, 52.5],
            left: 'L',
            right: 'R',
            layout: [
              { blockType: 'hero', heading: 'Hi' },
              { blockType: 'call-to-action', link: '/go' },
            ],
          },
        });
        if (res.status !== 201) throw new Error(res.text);
      },
      body: gql(
        '{ Pages { docs { kind snippet where left right layout { __typename ... on Hero { heading blockType } ... on CTA { link } } } } }',
      ),
      contains: [
        '"kind":"landing"',
        '"snippet":"x = 1"',
        '"where":[13.4,52.5]',
        '"left":"L","right":"R"',
        '{"__typename":"Hero","heading":"Hi","blockType":"hero"}',
        '{"__typename":"CTA","link":"/go"}',
      ],
    },
  ],
  {},
);
