/**
 * The MCP endpoint (docs/mcp.md) driven through the official SDK client over Streamable HTTP: connecting,
 * the tool list and its generated schemas, every tool, the mcp:publish scope, tool errors as isError
 * results naming the field, and the per-key request bound (429 with Retry-After, on the moved clock).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type Session, type TestServer } from './harness.ts';
import type { UserConfig } from '../src/config/types.ts';

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
    expect((await client.listTools()).tools.length).toBe(14);
    await client.close();
    await other.close();
  });
});
