/**
 * The release tools over MCP (docs/releases.md, docs/mcp.md): a key that may update the documents creates a
 * release and adds them without any releases scope; publishing it needs mcp:publish.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestServer, type TestServer } from '../harness.ts';

type Result = { isError?: boolean; content: { type: string; text: string }[] };
let t: TestServer;
const clients: Client[] = [];
const liveStatus = async () =>
  (await t.cms.store.get<{ status: string }>('SELECT "status" FROM "posts" WHERE "id" = 1'))?.status;

async function client(scopes: string[]): Promise<Client> {
  const admin = await t.session('admin');
  const editor = await t.session('editor');
  const made = await t.request('POST', '/api-keys', {
    token: admin.token,
    body: { name: scopes.join(' '), user: editor.user.id, scopes },
  });
  const c = new Client({ name: 'test-assistant', version: '1.0.0' });
  const headers = { authorization: `Bearer ${made.body.doc.key}` };
  await c.connect(new StreamableHTTPClientTransport(new URL(`${t.api}/mcp`), { requestInit: { headers } }));
  clients.push(c);
  return c;
}
const call = async (c: Client, name: string, args: Record<string, unknown>) => {
  const result = (await c.callTool({ name, arguments: args })) as Result;
  return { isError: Boolean(result.isError), text: result.content[0].text };
};

beforeAll(async () => {
  t = await startTestServer({
    releases: true,
    auth: { roles: ['admin', 'editor'] },
    collections: [{ slug: 'posts', drafts: true, fields: [{ name: 'title', type: 'text', required: true }] }],
  });
  const { token } = await t.session('editor');
  await t.request('POST', '/posts?draft=true', { token, body: { title: 'Soon' } });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await t.stop();
});

test('an assistant builds a release with update rights alone, and publishes it only with mcp:publish', async () => {
  const writer = await client(['posts:*']);
  const tools = (await writer.listTools()).tools.map((tool) => tool.name);
  expect(tools).toEqual(
    expect.arrayContaining(['list_releases', 'create_release', 'add_to_release', 'publish_release']),
  );
  const created = await call(writer, 'create_release', { title: 'From the assistant' });
  expect(created).toMatchObject({ isError: false });
  const release = JSON.parse(created.text).doc.id;
  const added = await call(writer, 'add_to_release', { release, collection: 'posts', id: 1 });
  expect(added.isError).toBe(false);
  expect(added.text).toContain('"title":"Soon"');
  expect((await call(writer, 'list_releases', {})).text).toContain('"totalDocs":1');
  const refused = await call(writer, 'publish_release', { release });
  expect(refused).toMatchObject({ isError: true });
  expect(refused.text).toContain('mcp:publish');
  expect(await liveStatus()).toBe('draft');

  const publisher = await client(['posts:*', 'mcp:publish']);
  const published = await call(publisher, 'publish_release', { release });
  expect(published.isError).toBe(false);
  expect(published.text).toContain('"status":"published"');
  expect(await liveStatus()).toBe('published');
});
