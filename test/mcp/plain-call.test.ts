/**
 * A plain `tools/call` or `tools/list` is answered without the SDK's server (src/mcp/plain-call.ts) with the
 * same status, headers and bytes as the SDK's answer to the same request, for results and for every kind
 * of failure (unknown tool, bad arguments, unknown collection, access denied, the publish right, invalid
 * data, missing documents), as an API key and as a session; and anything it does not recognise exactly
 * is left to the SDK.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startTestServer, type Session, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { credentialsOf } from '../../src/http/authenticate.ts';
import { requestContext } from '../../src/http/handle.ts';
import { answerPlainCall } from '../../src/mcp/plain-call.ts';
import { serveWithSDK } from '../../src/mcp/serve-mcp.ts';

// Drafts and locales, so that `draft` and `locale` arguments take effect; no search index, so `search` matches titles.
const config: UserConfig = {
  collections: [
    {
      slug: 'posts',
      access: { read: () => true },
      drafts: true,
      fields: [
        { name: 'title', type: 'text', required: true, localized: true },
        { name: 'category', type: 'select', options: ['news', 'guide'] },
        { name: 'views', type: 'number' },
      ],
    },
    { slug: 'notes', fields: [{ name: 'body', type: 'text', required: true }] },
  ],
  globals: [{ slug: 'settings', fields: [{ name: 'siteName', type: 'text' }] }],
  localization: { defaultLocale: 'en', locales: ['en', 'de'] },
  mcp: { requestsPerMinute: 1000 },
};

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('MCP calls answered without the SDK', () => {
  let t: TestServer;
  let admin: Session;
  let editor: Session; // without the publish right, so no call below changes anything
  let writerKey: string; // an editor's key: posts only, no mcp:publish

  beforeAll(async () => {
    t = await startTestServer(config);
    admin = await t.user('admin');
    editor = await t.user('editor');
    const res = await t.request('POST', '/api-keys', {
      token: admin.token,
      body: { name: 'writer', user: editor.user.id, scopes: ['posts:*'] },
    });
    writerKey = res.body.doc.key;
    for (const [title, views] of [
      ['First', 1],
      ['Second', 2],
      ['Third', 3],
    ] as const)
      await t.request('POST', '/posts', { token: admin.token, body: { title, views, _status: 'published' } });
    await t.request('POST', '/notes', { token: admin.token, body: { body: 'kept' } });
  });
  afterAll(() => t?.stop());

  const requestOf = (token: string, message: unknown, headers: Record<string, string> = {}) =>
    new Request(`${t.api}/mcp`, {
      method: 'POST',
      headers: { ...HEADERS, authorization: `Bearer ${token}`, ...headers },
      body: JSON.stringify(message),
    });

  /** Both ways, on requests alike: status, content type and bytes. */
  async function both(token: string, message: unknown) {
    const answer = async (serve: typeof serveWithSDK) => {
      const request = requestOf(token, message);
      const ctx = requestContext(t.cms, request, await credentialsOf(t.cms, request), { via: 'mcp' });
      const response = await serve(ctx, request, message);
      if (!response) return undefined;
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
    };
    return { sdk: await answer(serveWithSDK), plain: await answer(answerPlainCall as typeof serveWithSDK) };
  }

  const call = (id: string | number, name: string, args?: Record<string, unknown>) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: args === undefined ? { name } : { name, arguments: args },
  });

  const calls: [string, unknown][] = [
    ['tools/list', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['describe, no arguments, a string id', call('describe-1', 'describe')],
    [
      'find with where, sort, limit and locale',
      call(2, 'find', {
        collection: 'posts',
        where: { views: { greater_than: 1 } },
        sort: '-views',
        limit: 2,
        locale: 'en',
      }),
    ],
    ['find, drafts', call(3, 'find', { collection: 'posts', draft: true })],
    ['find_by_id', call(4, 'find_by_id', { collection: 'posts', id: 1 })],
    ['count', call(5, 'count', { collection: 'posts', where: { title: { like: 'i' } } })],
    ['search', call(6, 'search', { collection: 'posts', query: 'Second' })],
    ['find_global', call(7, 'find_global', { global: 'settings' })],
    ['an unknown tool', call(8, 'no_such_tool', {})],
    ['a missing argument', call(9, 'find', {})],
    ['a mistyped argument', call(10, 'find', { collection: 'posts', limit: 'ten' })],
    ['an unknown locale', call(11, 'find', { collection: 'posts', locale: 'fr' })],
    ['an unknown collection', call(12, 'find', { collection: 'nope' })],
    ['a missing document', call(13, 'find_by_id', { collection: 'posts', id: 999 })],
    ['a collection outside the key', call(14, 'find', { collection: 'notes' })],
    ['a tool that needs the publish right', call(15, 'delete', { collection: 'posts', id: 1 })],
    ['invalid data', call(16, 'create', { collection: 'posts', data: { views: 'many' } })],
    ['an account collection', call(17, 'create', { collection: 'users', data: {} })],
  ];

  for (const [what, message] of calls)
    test(`same answer as the SDK, as an API key: ${what}`, async () => {
      const { sdk, plain } = await both(writerKey, message);
      expect(plain).toBeDefined();
      expect(plain).toEqual(sdk!);
    });

  test('same answers as the SDK for a session token', async () => {
    for (const [, message] of calls) {
      const { sdk, plain } = await both(editor.token, message);
      expect(plain).toEqual(sdk!);
    }
  });

  test('a result holds the structured content and the same content as text', async () => {
    const { plain } = await both(writerKey, call(20, 'find', { collection: 'posts', sort: 'views', limit: 1 }));
    const { result } = JSON.parse(plain!.body);
    expect(result.structuredContent).toMatchObject({ totalDocs: 3, docs: [{ title: 'First' }] });
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  });

  const left: [string, unknown, Record<string, string>?][] = [
    ['a batch', [call(1, 'describe')]],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
    ['initialize', { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }],
    ['_meta in the call', { ...call(1, 'describe'), params: { name: 'describe', _meta: { progressToken: 1 } } }],
    ['a task', { ...call(1, 'describe'), params: { name: 'describe', task: {} } }],
    ['a key beside the message', { ...call(1, 'describe'), extra: true }],
    ['a fractional id', call(1.5, 'describe')],
    ['a null id', call(null as never, 'describe')],
    ['another JSON-RPC version', { ...call(1, 'describe'), jsonrpc: '1.0' }],
    ['arguments that are null', { ...call(1, 'find'), params: { name: 'find', arguments: null } }],
    ['a name that is not text', { ...call(1, 'find'), params: { name: 7 } }],
    [
      'a __proto__ argument',
      { ...call(1, 'find'), params: { name: 'find', arguments: JSON.parse('{"__proto__":1}') } },
    ],
    ['tools/list with a cursor', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'x' } }],
    ['an Accept without event streams', call(1, 'describe'), { accept: 'application/json' }],
    ['a body not declared JSON', call(1, 'describe'), { 'content-type': 'text/plain' }],
    ['an unsupported protocol version', call(1, 'describe'), { 'mcp-protocol-version': '1999-01-01' }],
  ];
  for (const [what, message, headers] of left)
    test(`left to the SDK: ${what}`, async () => {
      const request = requestOf(writerKey, message, headers);
      const ctx = requestContext(t.cms, request, await credentialsOf(t.cms, request), { via: 'mcp' });
      expect(await answerPlainCall(ctx, request, message)).toBeUndefined();
    });

  test('over HTTP, a plain call and the same call through the SDK answer the same bytes', async () => {
    const post = async (message: unknown) => {
      const res = await fetch(`${t.api}/mcp`, {
        method: 'POST',
        headers: { ...HEADERS, authorization: `Bearer ${writerKey}` },
        body: JSON.stringify(message),
      });
      return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    };
    const plain = await post(call(30, 'find', { collection: 'posts', limit: 2 }));
    // `_meta` leaves it to the SDK and changes nothing in the answer.
    const sdk = await post({
      ...call(30, 'find'),
      params: { name: 'find', arguments: { collection: 'posts', limit: 2 }, _meta: {} },
    });
    expect(plain.status).toBe(200);
    expect(plain).toEqual(sdk);
  });
});
