/**
 * The MCP endpoint (docs/mcp.md) driven through the official SDK client over Streamable HTTP: connecting,
 * the tool list and its generated schemas, every tool, the mcp:publish scope, tool errors as isError
 * results naming the field, and the per-key request bound (429 with Retry-After, on the moved clock).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  collections: [
    {
      slug: 'posts',
      drafts: true,
      admin: { useAsTitle: 'title' },
      search: { fields: ['title'] },
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text', required: true, localized: true },
        { name: 'category', type: 'select', options: ['news', 'guide'] },
        { name: 'views', type: 'number' },
        { name: 'cover', type: 'upload', relationTo: 'media' },
        { name: 'content', type: 'richText' },
        { name: 'internalNote', type: 'text', hidden: true },
      ],
    },
    { slug: 'notes', fields: [{ name: 'body', type: 'text' }] },
  ],
  globals: [{ slug: 'settings', fields: [{ name: 'siteName', type: 'text' }] }],
  mcp: { requestsPerMinute: 1000 },
};

type Result = { isError?: boolean; content: { type: string; text: string }[]; structuredContent?: any };
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

async function connect(t: TestServer, token: string | null): Promise<Client> {
  const client = new Client({ name: 'test-assistant', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.api}/mcp`), { requestInit: { headers } }));
  return client;
}
const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args }) as Promise<Result>;

describe('MCP over Streamable HTTP', () => {
  let t: TestServer;
  let admin: Session;
  let editor: Session;
  let writer: Client; // an editor's key without mcp:publish
  let publisher: Client; // an editor's key with mcp:publish
  const keys: Record<string, { id: number; key: string }> = {};
  const key = async (name: string, user: Session, scopes: string[]) => {
    const res = await t.request('POST', '/api-keys', {
      token: admin.token,
      body: { name, user: user.user.id, scopes },
    });
    expect(res.status).toBe(201);
    return (keys[name] = { id: res.body.doc.id, key: res.body.doc.key });
  };

  beforeAll(async () => {
    t = await startTestServer(config);
    admin = await t.user('admin');
    editor = await t.user('editor');
    writer = await connect(t, (await key('writer', editor, ['posts:*', 'notes:read', 'media:*', 'settings:*'])).key);
    publisher = await connect(
      t,
      (await key('publisher', editor, ['posts:*', 'notes:*', 'settings:*', 'mcp:publish'])).key,
    );
  });
  afterAll(async () => {
    await writer?.close();
    await publisher?.close();
    await t?.stop();
  });

  test('without credentials: 401, and the SDK client cannot connect', async () => {
    const res = await fetch(`${t.api}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ errors: [{ message: expect.any(String) }] });
    await expect(connect(t, null)).rejects.toThrow();
    await expect(connect(t, 'cms_not-a-key')).rejects.toThrow();
  });

  test('a cookie session alone is not enough', async () => {
    const res = await t.request('POST', '/mcp', {
      cookie: admin,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(res.status).toBe(401);
  });

  test('tools are listed with schemas generated from the config', async () => {
    const { tools } = await writer.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual([
      'count',
      'create',
      'delete',
      'describe',
      'duplicate',
      'find',
      'find_by_id',
      'find_global',
      'publish',
      'schedule',
      'search',
      'unpublish',
      'update',
      'update_global',
      'upload',
    ]);
    for (const tool of tools) expect(tool.description!.length).toBeGreaterThan(20);
    const create = tools.find((x) => x.name === 'create')!.inputSchema as any;
    expect(create.required).toEqual(['collection', 'data']);
    expect(create.properties.collection.enum).toContain('posts');
    expect(create.properties.locale.enum).toEqual(['en', 'de', 'all']);
    const posts = create.properties.data.anyOf.find((s: any) => s.title === 'posts');
    expect(posts.required).toEqual(['title']);
    expect(posts.properties.category.enum).toEqual(['news', 'guide']);
    expect(posts.properties.views.type).toBe('number');
    expect(posts.properties.title.description).toContain('Localized');
    expect(posts.properties.internalNote).toBeUndefined();
    const update = tools.find((x) => x.name === 'update')!.inputSchema as any;
    expect(update.properties.data.anyOf.find((s: any) => s.title === 'posts').required).toBeUndefined();
  });

  test('describe: the model and what this caller may do', async () => {
    const res = await call(writer, 'describe');
    expect(res.isError).toBeFalsy();
    const posts = res.structuredContent.collections.find((c: any) => c.slug === 'posts');
    expect(posts.youMay).toEqual({ read: true, create: true, update: true, delete: false, publish: false });
    expect(posts.fields.map((f: any) => f.name)).not.toContain('internalNote');
    expect(JSON.parse(res.content[0].text)).toEqual(res.structuredContent);
    const mayPublish = (await call(publisher, 'describe')).structuredContent.collections.find(
      (c: any) => c.slug === 'posts',
    ).youMay;
    expect(mayPublish).toMatchObject({ delete: true, publish: true });
  });

  test('create saves a draft on a drafts collection, whatever status it asks for', async () => {
    const res = await call(writer, 'create', {
      collection: 'posts',
      data: { title: 'Launch notes', category: 'news', status: 'published' },
    });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent.doc).toMatchObject({ id: 1, title: 'Launch notes', status: 'draft' });
    const rest = await t.request('GET', '/posts/1', { token: editor.token });
    expect(rest.body.status).toBe('draft');
    // Written as the key's user, via MCP, in the audit log.
    const log = await t.request('GET', '/audit-log?where[via][equals]=mcp', { token: admin.token });
    expect(log.body.docs[0]).toMatchObject({
      action: 'create',
      collection: 'posts',
      document: 1,
      via: 'mcp',
      user: editor.user.id,
      apiKey: keys.writer.id,
    });
  });

  test('failures are isError results naming the field', async () => {
    // A draft may leave the title empty, but not give it a value of the wrong type.
    const wrongType = await call(writer, 'create', { collection: 'posts', data: { title: 5, category: 'news' } });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.content[0].text).toContain('title');
    expect(wrongType.structuredContent.errors[0].field).toBe('title');
    const option = await call(writer, 'create', { collection: 'posts', data: { title: 'x', category: 'opinion' } });
    expect(option.isError).toBe(true);
    expect(option.structuredContent.errors[0].field).toBe('category');
    const unknown = await call(writer, 'find', { collection: 'nope' });
    expect(unknown).toMatchObject({ isError: true, structuredContent: { status: 404 } });
    const noArg = await call(writer, 'find_by_id', { collection: 'posts' });
    expect(noArg.structuredContent.errors[0].field).toBe('id');
    const where = await call(writer, 'find', { collection: 'posts', where: { internalNote: { equals: 'x' } } });
    expect(where.isError).toBe(true);
    expect(where.content[0].text).toContain('internalNote');
    const scope = await call(writer, 'create', { collection: 'notes', data: { body: 'x' } });
    expect(scope).toMatchObject({ isError: true, structuredContent: { status: 403 } });
    const tool = await call(writer, 'no_such_tool');
    expect(tool.isError).toBe(true);
  });

  test('publish, unpublish, schedule and delete need mcp:publish', async () => {
    for (const [name, args] of [
      ['publish', { collection: 'posts', id: 1 }],
      ['unpublish', { collection: 'posts', id: 1 }],
      [
        'schedule',
        { collection: 'posts', id: 1, action: 'publish', at: new Date(t.clock.now() + 3_600_000).toISOString() },
      ],
      ['delete', { collection: 'posts', id: 1 }],
    ] as const) {
      const res = await call(writer, name, args);
      expect(res.isError).toBe(true);
      expect(res.content[0].text).toContain('mcp:publish');
    }
    expect((await t.request('GET', '/posts/1', { token: editor.token })).body.status).toBe('draft');
    expect((await t.request('GET', '/posts/1/schedule', { token: editor.token })).body.docs).toEqual([]);
  });

  test('with mcp:publish: publish, then an update is a draft until published again', async () => {
    expect((await call(publisher, 'publish', { collection: 'posts', id: 1 })).structuredContent.doc).toMatchObject({
      status: 'published',
      title: 'Launch notes',
    });
    const updated = await call(writer, 'update', {
      collection: 'posts',
      id: 1,
      data: { title: 'Launch notes, revised', status: 'draft' },
    });
    expect(updated.isError).toBeFalsy();
    expect((await t.request('GET', '/posts/1')).body).toMatchObject({ title: 'Launch notes', status: 'published' });
    expect(
      (await call(writer, 'find_by_id', { collection: 'posts', id: 1, draft: true })).structuredContent.title,
    ).toBe('Launch notes, revised');
    await call(publisher, 'publish', { collection: 'posts', id: 1 });
    expect((await t.request('GET', '/posts/1')).body.title).toBe('Launch notes, revised');
    expect((await call(publisher, 'unpublish', { collection: 'posts', id: 1 })).structuredContent.doc.status).toBe(
      'draft',
    );
    const scheduled = await call(publisher, 'schedule', {
      collection: 'posts',
      id: 1,
      action: 'publish',
      at: new Date(t.clock.now() + 3_600_000).toISOString(),
    });
    expect(scheduled.structuredContent.doc).toMatchObject({ action: 'publish', state: 'pending', parent: 1 });
    const past = await call(publisher, 'schedule', {
      collection: 'posts',
      id: 1,
      action: 'publish',
      at: '2000-01-01T00:00:00Z',
    });
    expect(past.structuredContent.errors[0].field).toBe('at');
  });

  test('locales: one locale per call, or all', async () => {
    await call(writer, 'update', { collection: 'posts', id: 1, locale: 'de', data: { title: 'Startnotizen' } });
    const all = await call(writer, 'find_by_id', { collection: 'posts', id: 1, draft: true, locale: 'all' });
    expect(all.structuredContent.title).toEqual({ en: 'Launch notes, revised', de: 'Startnotizen' });
    expect((await call(writer, 'find', { collection: 'posts', locale: 'fr' })).structuredContent.errors[0].field).toBe(
      'locale',
    );
  });

  test('find, count and search answer as REST does for the same caller', async () => {
    for (const title of ['Guide to drafts', 'Guide to locales', 'Release party'])
      await call(publisher, 'create', { collection: 'posts', data: { title, category: 'guide' } });
    const mcp = await call(writer, 'find', { collection: 'posts', sort: '-createdAt', limit: 2 });
    const rest = await t.request('GET', '/posts?sort=-createdAt&limit=2&depth=0', { token: keys.writer.key });
    expect(mcp.structuredContent).toEqual(rest.body);
    expect(mcp.structuredContent).toMatchObject({ totalDocs: 4, hasNextPage: true, nextPage: 2 });
    expect(
      (await call(writer, 'count', { collection: 'posts', where: { category: { equals: 'guide' } } }))
        .structuredContent,
    ).toEqual({ totalDocs: 3 });
    // Through the full-text index; the same as GET /posts?search=…
    const found = await call(writer, 'search', { collection: 'posts', query: 'guide dra' });
    expect(found.structuredContent.docs.map((d: any) => d.title)).toEqual(['Guide to drafts']);
    expect(found.structuredContent).toEqual(
      (await t.request('GET', '/posts?search=guide%20dra&depth=0', { token: keys.writer.key })).body,
    );
    // A collection without an index: every word in its title field.
    await call(publisher, 'create', { collection: 'notes', data: { body: 'Call the printer on Monday' } });
    expect(
      (await call(publisher, 'search', { collection: 'notes', query: 'printer monday' })).structuredContent.totalDocs,
    ).toBe(1);
  });

  test('rich text may be written as Markdown', async () => {
    const res = await call(writer, 'create', {
      collection: 'posts',
      data: { title: 'Formatted', content: '# Heading\n\nSome **bold** text.' },
    });
    expect(res.isError).toBeFalsy();
    const root = res.structuredContent.doc.content.root;
    expect(root.children[0]).toMatchObject({ type: 'heading', tag: 'h1' });
    expect(JSON.stringify(root.children[1])).toContain('"format":1');
    const schema = (
      (await writer.listTools()).tools.find((x) => x.name === 'create')!.inputSchema as any
    ).properties.data.anyOf.find((s: any) => s.title === 'posts');
    expect(schema.properties.content.description).toContain('Markdown');
  });

  test('delete with mcp:publish', async () => {
    const res = await call(publisher, 'delete', { collection: 'posts', id: 4 });
    expect(res.structuredContent.doc.id).toBe(4);
    expect((await t.request('GET', '/posts/4', { token: editor.token })).status).toBe(404);
  });

  test('globals: find_global and update_global', async () => {
    expect(
      (await call(writer, 'update_global', { global: 'settings', data: { siteName: 'Field notes' } })).isError,
    ).toBeFalsy();
    expect((await call(writer, 'find_global', { global: 'settings' })).structuredContent.siteName).toBe('Field notes');
  });

  test('upload: base64 bytes and a filename, then used in an upload field', async () => {
    const res = await call(writer, 'upload', { filename: 'dot.png', data: PNG, fields: { alt: 'A dot' } });
    expect(res.isError).toBeFalsy();
    expect(res.structuredContent.doc).toMatchObject({ mimeType: 'image/png', alt: 'A dot', width: 1 });
    const cover = await call(writer, 'update', {
      collection: 'posts',
      id: 2,
      data: { cover: res.structuredContent.doc.id },
    });
    expect(cover.isError).toBeFalsy();
    const bad = await call(writer, 'upload', { filename: 'x.png', data: 'not base64!' });
    expect(bad.structuredContent.errors[0].field).toBe('data');
    const type = await call(writer, 'upload', {
      filename: 'x.exe',
      data: Buffer.from('MZ just bytes').toString('base64'),
    });
    expect(type.isError).toBe(true);
  });

  test('sessions: an editor session may not publish, an admin session may', async () => {
    const editorClient = await connect(t, editor.token);
    const adminClient = await connect(t, admin.token);
    try {
      expect((await call(editorClient, 'publish', { collection: 'posts', id: 2 })).isError).toBe(true);
      expect((await call(adminClient, 'publish', { collection: 'posts', id: 2 })).structuredContent.doc.status).toBe(
        'published',
      );
    } finally {
      await editorClient.close();
      await adminClient.close();
    }
  });
});

describe('MCP request bound', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ ...config, mcp: { requestsPerMinute: 4 } });
  });
  afterAll(() => t?.stop());

  test('past the bound a key gets 429 with Retry-After, until the minute has passed', async () => {
    const admin = await t.user('admin');
    const key = (
      await t.request('POST', '/api-keys', {
        token: admin.token,
        body: { name: 'k', user: admin.user.id, scopes: ['*'] },
      })
    ).body.doc.key;
    const client = await connect(t, key); // initialize + initialized: two requests
    await client.listTools();
    await call(client, 'count', { collection: 'posts' });
    const refused = await t.request('POST', '/mcp', {
      token: key,
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 9, method: 'tools/list' },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await expect(client.listTools()).rejects.toThrow();
    // Another caller has its own bound.
    const other = await connect(t, admin.token);
    await other.listTools();
    t.clock.advance(61_000);
    expect((await client.listTools()).tools.length).toBe(15);
    await client.close();
    await other.close();
  });

  test('every message of a JSON-RPC batch counts against the bound', async () => {
    const admin = await t.user('admin');
    const key = (
      await t.request('POST', '/api-keys', {
        token: admin.token,
        body: { name: 'batcher', user: admin.user.id, scopes: ['*'] },
      })
    ).body.doc.key;
    const batch = (n: number, headers: Record<string, string> = {}) =>
      fetch(`${t.api}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify(
          Array.from({ length: n }, (_, i) => ({
            jsonrpc: '2.0',
            id: i + 1,
            method: 'tools/call',
            params: { name: 'create', arguments: { collection: 'notes', data: { body: `note ${i}` } } },
          })),
        ),
      });
    const notes = async () => (await t.request('GET', '/notes', { token: admin.token })).body.totalDocs;
    const before = await notes();
    // One request of 100 calls is 100 messages: past the bound of 4, nothing runs.
    const flood = await batch(100);
    expect(flood.status).toBe(429);
    expect(Number(flood.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await notes()).toBe(before);
    // Three fit; then two more would pass the bound of four, so the whole batch is refused.
    const three = await batch(3);
    expect(three.status).toBe(200);
    expect((await three.json()).length).toBe(3);
    expect(await notes()).toBe(before + 3);
    expect((await batch(2)).status).toBe(429);
    expect(await notes()).toBe(before + 3);
    // Protocol versions from 2025-06-18 on have no batches at all.
    t.clock.advance(61_000);
    const refused = await batch(2, { 'mcp-protocol-version': '2025-06-18' });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error.code).toBe(-32600);
    expect(await notes()).toBe(before + 3);
  });
});

describe('MCP publish gate: the trash, upload status and accounts', () => {
  let t: TestServer;
  let admin: Session;
  let writer: Client; // an editor's key without mcp:publish
  let publisher: Client;
  let star: Client; // an admin's `*` key, which does not carry mcp:publish
  let starKey: { id: number; scopes: string[] };
  const gated = (res: Result) => {
    expect(res.isError).toBe(true);
    expect(res.content[0].text).toContain('mcp:publish');
  };

  beforeAll(async () => {
    t = await startTestServer({
      collections: [
        {
          slug: 'pages',
          drafts: true,
          trash: true,
          access: { read: () => true },
          fields: [{ name: 'title', type: 'text' }],
        },
        { slug: 'media', upload: true, drafts: true, access: { read: () => true }, fields: [] },
      ],
      mcp: { requestsPerMinute: 1000 },
    });
    admin = await t.user('admin');
    const editor = await t.user('editor');
    const key = async (user: Session, scopes: string[]) => {
      const res = await t.request('POST', '/api-keys', {
        token: admin.token,
        body: { name: scopes.join(' '), user: user.user.id, scopes },
      });
      expect(res.status).toBe(201);
      return res.body.doc;
    };
    writer = await connect(t, (await key(editor, ['pages:*', 'media:*'])).key);
    publisher = await connect(t, (await key(editor, ['pages:*', 'mcp:publish'])).key);
    const made = await key(admin, ['*']);
    starKey = { id: made.id, scopes: made.scopes };
    star = await connect(t, made.key);
  });
  afterAll(async () => {
    for (const client of [writer, publisher, star]) await client?.close();
    await t?.stop();
  });

  test('moving a live document into the trash, or out of it, needs mcp:publish', async () => {
    const live = await t.request('POST', '/pages', {
      token: admin.token,
      body: { title: 'Live', status: 'published' },
    });
    const id = live.body.doc.id;
    gated(await call(writer, 'update', { collection: 'pages', id, data: { deletedAt: new Date().toISOString() } }));
    expect((await t.request('GET', `/pages/${id}`)).status).toBe(200);
    const trashed = await call(publisher, 'update', {
      collection: 'pages',
      id,
      data: { deletedAt: new Date().toISOString() },
    });
    expect(trashed.isError).toBeFalsy();
    expect((await t.request('GET', `/pages/${id}`)).status).toBe(404);
    gated(await call(writer, 'update', { collection: 'pages', id, data: { deletedAt: null } }));
    expect((await t.request('GET', `/pages/${id}`)).status).toBe(404);
    expect(
      (await call(publisher, 'update', { collection: 'pages', id, data: { deletedAt: null } })).isError,
    ).toBeFalsy();
    expect((await t.request('GET', `/pages/${id}`)).body).toMatchObject({ title: 'Live', status: 'published' });
  });

  test('upload fields cannot set a status', async () => {
    for (const fields of [{ _status: 'published' }, { status: 'published' }]) {
      const res = await call(writer, 'upload', { filename: 'dot.png', data: PNG, fields });
      expect(res.isError).toBeFalsy();
      expect(res.structuredContent.doc.status).toBe('draft');
      const read = await t.request('GET', `/media/${res.structuredContent.doc.id}`);
      expect(read.body.status).toBe('draft');
    }
  });

  test('no writes to users or api-keys, even with an admin `*` key', async () => {
    const adminId = admin.user.id;
    const refused = [
      await call(star, 'update', { collection: 'api-keys', id: starKey.id, data: { scopes: ['*', 'mcp:publish'] } }),
      await call(star, 'create', {
        collection: 'api-keys',
        data: { name: 'minted', user: adminId, scopes: ['*', 'mcp:publish'] },
      }),
      await call(star, 'create', {
        collection: 'users',
        data: { email: 'second@example.com', password: 'correct horse', role: 'admin' },
      }),
      await call(star, 'update', { collection: 'users', id: adminId, data: { name: 'Renamed' } }),
      await call(star, 'delete', { collection: 'api-keys', id: starKey.id }),
    ];
    for (const res of refused) expect(res).toMatchObject({ isError: true, structuredContent: { status: 403 } });
    const keys = await t.request('GET', '/api-keys', { token: admin.token });
    expect(keys.body.docs.map((k: any) => k.name).sort()).toEqual(['*', 'pages:* mcp:publish', 'pages:* media:*']);
    expect(keys.body.docs.find((k: any) => k.id === starKey.id).scopes).toEqual(starKey.scopes);
    expect((await t.request('GET', '/users', { token: admin.token })).body.totalDocs).toBe(2);
    // Not offered either: the write tools' collection enums leave them out, and describe says no.
    const { tools } = await star.listTools();
    for (const name of ['create', 'update', 'delete', 'publish'])
      expect((tools.find((x) => x.name === name)!.inputSchema as any).properties.collection.enum).not.toContain(
        'api-keys',
      );
    const described = (await call(star, 'describe')).structuredContent.collections;
    expect(described.find((c: any) => c.slug === 'users').youMay).toMatchObject({ create: false, update: false });
  });
});

/**
 * What function-calling formats and the MCP Inspector's lint reject in a tool's input schema: `type` as a
 * list (`['string', 'null']`) or an unknown name, an array without `items`, `required` naming a property
 * that is not there, an empty `enum`, and OpenAPI's `nullable`. Returns each problem with its path.
 */
function lintSchema(schema: unknown, path: string, problems: string[] = []): string[] {
  if (Array.isArray(schema)) schema.forEach((s, i) => lintSchema(s, `${path}.${i}`, problems));
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return problems;
  const node = schema as Record<string, any>;
  if ('type' in node && !['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'].includes(node.type))
    problems.push(`${path}.type: ${JSON.stringify(node.type)}`);
  if (node.type === 'array' && node.items === undefined) problems.push(`${path}: an array without items`);
  if (Array.isArray(node.required))
    for (const name of node.required)
      if (!node.properties || !(name in node.properties)) problems.push(`${path}.required: ${name} is not a property`);
  if ('enum' in node && (!Array.isArray(node.enum) || node.enum.length === 0)) problems.push(`${path}.enum: empty`);
  if ('nullable' in node) problems.push(`${path}.nullable`);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties')
      for (const [name, p] of Object.entries(value as object)) lintSchema(p, `${path}.properties.${name}`, problems);
    else if (key !== 'enum' && key !== 'const' && key !== 'required') lintSchema(value, `${path}.${key}`, problems);
  }
  return problems;
}

describe('MCP tool schemas', () => {
  let t: TestServer;
  let client: Client;
  beforeAll(async () => {
    t = await startTestServer({
      localization: { locales: ['en', 'de'], defaultLocale: 'en' },
      collections: [
        {
          slug: 'pages',
          drafts: true,
          access: { read: () => true },
          fields: [
            { name: 'title', type: 'text', required: true, localized: true },
            { name: 'body', type: 'richText', localized: true },
            { name: 'summary', type: 'textarea' },
            { name: 'notes', type: 'markdown' },
            { name: 'contact', type: 'email' },
            { name: 'rank', type: 'number', min: 0 },
            { name: 'featured', type: 'checkbox' },
            { name: 'at', type: 'date' },
            { name: 'kind', type: 'radio', options: ['a', 'b'] },
            { name: 'tags', type: 'select', hasMany: true, options: ['x', 'y'] },
            { name: 'snippet', type: 'code' },
            { name: 'where', type: 'point' },
            { name: 'extra', type: 'json' },
            { name: 'parent', type: 'relationship', relationTo: 'pages' },
            { name: 'link', type: 'relationship', relationTo: ['pages', 'posts'] },
            { name: 'related', type: 'relationship', relationTo: ['pages', 'posts'], hasMany: true },
            { name: 'image', type: 'upload', relationTo: 'media' },
            { name: 'meta', type: 'group', fields: [{ name: 'description', type: 'richText' }] },
            { name: 'rows', type: 'array', fields: [{ name: 'label', type: 'text', required: true }] },
            {
              name: 'layout',
              type: 'blocks',
              blocks: [{ slug: 'cta', fields: [{ name: 'text', type: 'richText', required: true }] }],
            },
            { type: 'tabs', tabs: [{ label: 'SEO', name: 'seo', fields: [{ name: 'keywords', type: 'text' }] }] },
            { type: 'row', fields: [{ name: 'left', type: 'text' }] },
            { name: 'children', type: 'join', collection: 'pages', on: 'parent' },
          ],
        },
        { slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] },
      ],
      globals: [{ slug: 'settings', fields: [{ name: 'footer', type: 'richText' }] }],
      mcp: { requestsPerMinute: 1000 },
    });
    const admin = await t.user('admin');
    const key = await t.request('POST', '/api-keys', {
      token: admin.token,
      body: { name: 'lint', user: admin.user.id, scopes: ['*'] },
    });
    client = await connect(t, key.body.doc.key);
  });
  afterAll(async () => {
    await client?.close();
    await t?.stop();
  });

  test('every tool input schema lints clean: no type lists, arrays with items, required among properties', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBe(15);
    const problems = tools.flatMap((tool) => lintSchema(tool.inputSchema, tool.name));
    expect(problems).toEqual([]);
  });

  test('the data schema refuses what the server refuses: a point out of range, an id below 1, rich text without root', async () => {
    const { tools } = await client.listTools();
    const create = tools.find((x) => x.name === 'create')!.inputSchema as any;
    const pages = create.properties.data.anyOf.find((s: any) => s.title === 'pages');
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const check = ajv.compile(pages);
    const base = { title: 'Checked' };
    const cases: [string, Record<string, unknown>][] = [
      ['a longitude beyond 180', { where: [200, 0] }],
      ['a latitude beyond 90', { where: [0, -91] }],
      ['an id of 0', { parent: 0 }],
      ['an id of 0 in { relationTo, value }', { link: { relationTo: 'posts', value: 0 } }],
      ['a collection the field does not point at', { link: { relationTo: 'media', value: 1 } }],
      ['rich text without a root node', { body: { children: [] } }],
    ];
    for (const [what, data] of cases) {
      expect({ what, schema: check({ ...base, ...data }) }).toEqual({ what, schema: false });
      const res = await call(client, 'create', { collection: 'pages', data: { ...base, ...data } });
      expect({ what, server: res.isError }).toEqual({ what, server: true });
    }
    // What the server takes, the schema takes.
    const good = { where: [13.4, 52.5], link: { relationTo: 'posts', value: 1 }, body: 'Some *Markdown*' };
    expect(check({ ...base, ...good }) || ajv.errorsText(check.errors)).toBe(true);
  });

  test('each field type has its own schema; a polymorphic relationship takes { relationTo, value }', async () => {
    const { tools } = await client.listTools();
    const create = tools.find((x) => x.name === 'create')!.inputSchema as any;
    const pages = create.properties.data.anyOf.find((s: any) => s.title === 'pages').properties;
    const { link, related, parent, children, seo, left, rank } = pages;
    // One alternative per collection, as /openapi.json writes it (anyOf: every function-calling format takes it).
    expect(link.anyOf.map((s: any) => s.properties.relationTo.const)).toEqual(['pages', 'posts']);
    expect(link.anyOf.map((s: any) => s.required)).toEqual([
      ['relationTo', 'value'],
      ['relationTo', 'value'],
    ]);
    expect(related.items.anyOf[1].properties.value).toEqual({ type: 'integer', minimum: 1 });
    expect(parent.type).toBe('integer');
    expect(children).toBeUndefined(); // a join is read-only
    expect(seo.properties.keywords.type).toBe('string');
    expect(left.type).toBe('string');
    expect(rank.minimum).toBe(0);
    // Only the text fields say "Text."; every other type describes itself.
    const described = Object.entries(pages).filter(([, s]: [string, any]) => /(^|\. )Text\./.test(s.description));
    expect(described.map(([name]) => name).sort()).toEqual(['left', 'title']);
    const post = await call(client, 'create', { collection: 'posts', data: { title: 'Target' } });
    const made = await call(client, 'create', {
      collection: 'pages',
      data: {
        title: 'Linked',
        link: { relationTo: 'posts', value: post.structuredContent.doc.id },
        related: [{ relationTo: 'posts', value: post.structuredContent.doc.id }],
      },
    });
    expect(made.isError).toBeFalsy();
    expect(made.structuredContent.doc.link).toEqual({ relationTo: 'posts', value: post.structuredContent.doc.id });
  });
});
