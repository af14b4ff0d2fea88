/**
 * Duplicate on every transport that offers it (docs/architecture.md, "Transports"): REST's
 * `POST /:collection/:id/duplicate` as a table of rows, then the Local API, the HTTP client and the MCP
 * tool, each making the same copy through the one operation GraphQL's `duplicatePost` calls.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { runScenarios, startTestServer, type TestServer } from '../harness.ts';
import { localAPI } from '../../src/local.ts';
import { createClient } from '../../client/index.js';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  collections: [
    {
      slug: 'posts',
      drafts: true,
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'slug', type: 'text', unique: true },
        { name: 'views', type: 'number' },
      ],
    },
  ],
};

/** The first post, published, as every row finds it. */
async function seed(t: TestServer): Promise<void> {
  const admin = await t.session('admin');
  const res = await t.request('POST', '/posts', {
    token: admin.token,
    body: { title: 'First words', slug: 'first', views: 3, status: 'published' },
  });
  if (res.status !== 201) throw new Error(`seed: ${res.status} ${res.text}`);
}

runScenarios(
  'POST /:collection/:id/duplicate',
  config,
  [
    {
      name: 'an editor copies a post: a new draft, its unique slug marked as a copy',
      method: 'POST',
      url: '/posts/1/duplicate',
      as: 'editor',
      status: 200,
      contains: ['"message":"Successfully duplicated."', '"id":2', '"title":"First words"', '"slug":"first - Copy"'],
      events: { draft: 1, '*': 0 },
      check: async (res, t) => {
        expect(res.body.doc).toMatchObject({ id: 2, views: 3, status: 'draft' });
        // The original is as it was.
        expect((await t.request('GET', '/posts/1')).body).toMatchObject({ slug: 'first', status: 'published' });
      },
    },
    {
      name: 'values in the body change the copy',
      method: 'POST',
      url: '/posts/1/duplicate',
      body: { title: 'Second words', slug: 'second' },
      as: 'editor',
      status: 200,
      contains: ['"title":"Second words"', '"slug":"second"', '"views":3'],
      events: { draft: 1, '*': 0 },
    },
    {
      name: 'a value the copy may not hold is a 400 naming the field, and nothing is made',
      method: 'POST',
      url: '/posts/1/duplicate',
      body: { views: 'many' },
      as: 'editor',
      status: 400,
      contains: ['"field":"views"'],
      events: { '*': 0 },
      check: async (_res, t) => expect((await t.request('GET', '/posts/count?draft=true')).body.totalDocs).toBe(1),
    },
    {
      name: 'a body that is not an object is a 400',
      method: 'POST',
      url: '/posts/1/duplicate',
      body: ['title'],
      as: 'editor',
      status: 400,
      contains: ['must be a JSON object'],
      events: { '*': 0 },
    },
    {
      name: 'nobody signed in may not copy: 401 before the body is read',
      method: 'POST',
      url: '/posts/1/duplicate',
      body: {},
      status: 401,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'a missing document is a 404',
      method: 'POST',
      url: '/posts/99/duplicate',
      as: 'editor',
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'media documents are not copied (the copy would share the file)',
      method: 'POST',
      url: '/media/1/duplicate',
      as: 'admin',
      status: 400,
      contains: ['cannot be duplicated'],
      events: { '*': 0 },
    },
    {
      name: 'accounts are not copied',
      method: 'POST',
      url: (t) => `/users/${t.sessions.get('admin')!.user.id}/duplicate`,
      as: 'admin',
      status: 400,
      contains: ['cannot be duplicated'],
      events: { '*': 0 },
    },
    {
      name: 'another method is a 405',
      method: 'GET',
      url: '/posts/1/duplicate',
      as: 'editor',
      status: 405,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
  ],
  seed,
);

describe('duplicate beside REST', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(config);
    await seed(t);
  });
  afterAll(async () => {
    await t?.stop();
  });

  test('the Local API: duplicate, with data, under access only when asked', async () => {
    const cms = localAPI(t.cms);
    const copy = await cms.duplicate({ collection: 'posts', id: 1, data: { views: 10 } });
    expect(copy).toMatchObject({ title: 'First words', slug: 'first - Copy', views: 10, status: 'draft' });
    await expect(cms.duplicate({ collection: 'posts', id: 1, overrideAccess: false })).rejects.toMatchObject({
      status: 401,
    });
    await expect(cms.duplicate({ collection: 'media', id: 1 })).rejects.toMatchObject({ status: 400 });
  });

  test('the HTTP client: duplicate over REST, errors as CMSClientError', async () => {
    const editor = await t.session('editor');
    const client = createClient({ url: t.api, token: editor.token });
    const copy = await client.duplicate({ collection: 'posts', id: 1, data: { slug: 'from-the-client' } });
    expect(copy).toMatchObject({ title: 'First words', slug: 'from-the-client', status: 'draft' });
    expect((await t.request('GET', `/posts/${copy.id}?draft=true`)).body.slug).toBe('from-the-client');
    await expect(client.duplicate({ collection: 'posts', id: 99 })).rejects.toMatchObject({ status: 404 });
  });

  test('the MCP tool: a draft copy, listed with its schema', async () => {
    const editor = await t.session('editor');
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.api}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${editor.token}` } },
      }),
    );
    try {
      const tool = (await client.listTools()).tools.find((x) => x.name === 'duplicate')!;
      expect((tool.inputSchema as { required: string[] }).required).toEqual(['collection', 'id']);
      const res = (await client.callTool({
        name: 'duplicate',
        arguments: {
          collection: 'posts',
          id: 1,
          data: { title: 'By the assistant', slug: 'by-mcp', status: 'published' },
        },
      })) as { isError?: boolean; structuredContent: any };
      expect(res.structuredContent.errors).toBeUndefined();
      // The copy is a draft, whatever status the call asks for: publishing is the publish tool's.
      expect(res.structuredContent.doc).toMatchObject({ title: 'By the assistant', status: 'draft' });
      const missing = (await client.callTool({ name: 'duplicate', arguments: { collection: 'posts', id: 99 } })) as {
        isError?: boolean;
      };
      expect(missing.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
