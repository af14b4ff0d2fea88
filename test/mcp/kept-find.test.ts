/**
 * A plain MCP `find` is kept in the response cache as a REST list is (src/http/routes/mcp.ts): a repeated
 * call is answered from it with the same bytes around its own id, a write makes it fresh, callers never
 * share a kept result, kept calls still count against the bound, and a result a rule computed from the
 * request is never kept.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { cacheFigures } from '../../src/http/cached-read.ts';

const config: UserConfig = {
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  collections: [
    {
      slug: 'posts',
      // Editors see what is published; admins see everything.
      access: { read: ({ user }: any) => (user?.role === 'admin' ? true : { status: { equals: 'published' } }) },
      fields: [
        { name: 'title', type: 'text', required: true, localized: true },
        { name: 'status', type: 'select', options: ['draft', 'published'] },
      ],
    },
    {
      slug: 'notes',
      // A rule that looks at the request: its answers depend on more than the key.
      access: { read: ({ req }: any) => req.headers.get('x-team') === 'a' },
      fields: [{ name: 'body', type: 'text', localized: true }],
    },
  ],
  mcp: { requestsPerMinute: 1000 },
};

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('MCP find from the response cache', () => {
  let t: TestServer;
  let adminKey: string;
  let editorKey: string;

  const keyOf = async (user: unknown, name: string) =>
    (
      await t.request('POST', '/api-keys', {
        token: (await t.session('admin')).token,
        body: { name, user, scopes: ['*'] },
      })
    ).body.doc.key as string;

  beforeAll(async () => {
    t = await startTestServer(config);
    const admin = await t.session('admin');
    const editor = await t.session('editor');
    adminKey = await keyOf(admin.user.id, 'admin');
    editorKey = await keyOf(editor.user.id, 'editor');
    for (const [title, status] of [
      ['One', 'published'],
      ['Two', 'draft'],
    ])
      await t.request('POST', '/posts', { token: admin.token, body: { title, status } });
    await t.request('POST', '/notes', { token: admin.token, body: { body: 'team a only' } });
  });
  afterAll(() => t?.stop());

  /** One `find` over HTTP: status and raw bytes. */
  async function find(
    key: string,
    id: number | string,
    args: Record<string, unknown>,
    headers: Record<string, string> = {},
  ) {
    const response = await t.fetch('/mcp', {
      method: 'POST',
      headers: { ...HEADERS, authorization: `Bearer ${key}`, ...headers },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'find', arguments: args } }),
    });
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
  }
  const hits = () => cacheFigures(t.cms)!.hits;
  const titles = (answer: { text: string }) =>
    JSON.parse(answer.text).result.structuredContent.docs.map((d: any) => d.title);

  test('a repeated find is answered from the cache: the same bytes around its own id', async () => {
    const args = { collection: 'posts', sort: 'title', limit: 5 };
    const first = await find(adminKey, 1, args);
    expect(titles(first)).toEqual(['One', 'Two']);
    const before = hits();
    const again = await find(adminKey, 'second', args);
    expect(hits()).toBe(before + 1);
    expect(again.status).toBe(200);
    expect(again.type).toBe('application/json');
    expect(again.text).toBe(first.text.replace(/"id":1}$/, '"id":"second"}'));
  });

  test('a write makes it fresh', async () => {
    const args = { collection: 'posts', sort: 'title', where: { status: { equals: 'published' } } };
    expect(titles(await find(adminKey, 1, args))).toEqual(['One']);
    expect(titles(await find(adminKey, 2, args))).toEqual(['One']);
    await t.request('POST', '/posts', {
      token: (await t.session('admin')).token,
      body: { title: 'Three', status: 'published' },
    });
    const before = hits();
    expect(titles(await find(adminKey, 3, args))).toEqual(['One', 'Three']);
    expect(hits()).toBe(before);
  });

  test('callers never share a kept result', async () => {
    const args = { collection: 'posts', sort: 'title', limit: 7 };
    expect(titles(await find(adminKey, 1, args))).toContain('Two');
    expect(titles(await find(editorKey, 1, args))).not.toContain('Two');
    expect(titles(await find(adminKey, 2, args))).toContain('Two');
    expect(titles(await find(editorKey, 2, args))).not.toContain('Two');
  });

  test('a result a rule computed from the request is never kept, with a locale or without', async () => {
    for (const args of [{ collection: 'notes' }, { collection: 'notes', locale: 'en' }]) {
      expect(
        JSON.parse((await find(adminKey, 1, args, { 'x-team': 'a' })).text).result.structuredContent.docs,
      ).toHaveLength(1);
      const other = await find(adminKey, 2, args, { 'x-team': 'b' });
      expect(JSON.parse(other.text).result.isError).toBe(true);
    }
  });

  test('failures are not kept', async () => {
    const args = { collection: 'posts', sort: 'nope' };
    const first = await find(adminKey, 1, args);
    expect(JSON.parse(first.text).result.isError).toBe(true);
    const before = hits();
    expect((await find(adminKey, 2, args)).text).toBe(first.text.replace(/"id":1}$/, '"id":2}'));
    expect(hits()).toBe(before);
  });
});

describe('MCP find from the response cache, under the request bound', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ ...config, mcp: { requestsPerMinute: 3 } });
  });
  afterAll(() => t?.stop());

  test('a kept find counts against the bound like any call', async () => {
    const admin = await t.session('admin');
    const call = () =>
      t.fetch('/mcp', {
        method: 'POST',
        headers: { ...HEADERS, authorization: `Bearer ${admin.token}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'find', arguments: { collection: 'posts' } },
        }),
      });
    const before = cacheFigures(t.cms)!.hits;
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    expect((await call()).status).toBe(200);
    expect(cacheFigures(t.cms)!.hits).toBe(before + 2);
    const refused = await call();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    t.clock.advance(61_000);
    expect((await call()).status).toBe(200);
  });
});
