/**
 * The GraphQL API driven by a real client library (graphql-request), as a frontend would: the schema
 * read by introspection and rebuilt with graphql-js's buildClientSchema carries Payload's names, and
 * queries, variables, mutations and errors behave as the client expects. Runs on the suite's engine.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { ClientError, GraphQLClient, gql } from 'graphql-request';
import {
  buildClientSchema,
  getIntrospectionQuery,
  isEnumType,
  isInputObjectType,
  isObjectType,
  type IntrospectionQuery,
} from 'graphql';
import fs from 'node:fs';
import path from 'node:path';
import { buildSchema, printSchema } from 'graphql';
import { startTestServer, tempDir, type TestServer } from '../harness.ts';

describe('GraphQL through graphql-request', () => {
  let t: TestServer;
  let client: GraphQLClient;
  beforeAll(async () => {
    t = await startTestServer({
      collections: [
        {
          slug: 'posts',
          drafts: true,
          access: { read: () => true },
          fields: [
            { name: 'title', type: 'text', required: true },
            { name: 'category', type: 'select', options: ['news', 'tech'] },
            { name: 'author', type: 'relationship', relationTo: 'users' },
          ],
        },
        {
          slug: 'articles',
          labels: { singular: 'Story', plural: 'Stories' },
          access: { read: () => true },
          fields: [{ name: 'headline', type: 'text' }],
        },
      ],
      globals: [{ slug: 'settings', access: { read: () => true }, fields: [{ name: 'siteName', type: 'text' }] }],
    });
    await t.user('admin', 'client@example.com', 'password123');
    client = new GraphQLClient(`${t.api}/graphql`);
  });
  afterAll(() => t?.stop());

  test("introspection rebuilds a schema with Payload's names", async () => {
    const schema = buildClientSchema(await client.request<IntrospectionQuery>(getIntrospectionQuery()));
    const query = schema.getQueryType()!.getFields();
    const mutation = schema.getMutationType()!.getFields();
    for (const name of [
      'Post',
      'Posts',
      'countPosts',
      'versionPost',
      'versionsPosts',
      'Story',
      'Stories',
      'countStories',
      'Settings',
      'meUser',
      'initializedUser',
      'allMedia',
    ])
      expect(query[name]).toBeDefined();
    for (const name of [
      'createPost',
      'updatePost',
      'deletePost',
      'duplicatePost',
      'restoreVersionPost',
      'updateSettings',
      'loginUser',
      'logoutUser',
      'refreshTokenUser',
      'forgotPasswordUser',
      'resetPasswordUser',
      'unlockUser',
    ])
      expect(mutation[name]).toBeDefined();
    expect(query.Article).toBeUndefined();
    const where = schema.getType('Post_where');
    expect(isInputObjectType(where) && Object.keys(where.getFields())).toEqual(
      expect.arrayContaining(['title', 'category', 'author', 'id', 'AND', 'OR']),
    );
    const title = schema.getType('Post_title_operator');
    expect(isInputObjectType(title) && Object.keys(title.getFields())).toEqual(
      expect.arrayContaining(['equals', 'not_equals', 'like', 'contains', 'in', 'not_in']),
    );
    const list = schema.getType('Posts');
    expect(isObjectType(list) && Object.keys(list.getFields())).toEqual(
      expect.arrayContaining([
        'docs',
        'totalDocs',
        'limit',
        'page',
        'totalPages',
        'hasNextPage',
        'hasPrevPage',
        'nextPage',
        'prevPage',
        'pagingCounter',
      ]),
    );
    expect(
      isEnumType(schema.getType('Post_category')) &&
        (schema.getType('Post_category') as any).getValues().map((v: any) => v.name),
    ).toEqual(['news', 'tech']);
    expect(String(query.Post.type)).toBe('Post');
    expect(query.Post.args.map((a) => a.name)).toEqual(['id', 'draft', 'richText']);
    const id = (schema.getType('Post') as any).getFields().id;
    expect(String(id.type)).toBe('Int!');
    expect(String((schema.getType('Post') as any).getFields().createdAt.type)).toBe('DateTime');
  });

  test('sign in, write with variables, read with a relationship', async () => {
    const { loginUser } = await client.request<any>(
      gql`mutation Login($email: String!, $password: String) { loginUser(email: $email, password: $password) { token user { id email } } }`,
      { email: 'client@example.com', password: 'password123' },
    );
    const authed = new GraphQLClient(`${t.api}/graphql`, { headers: { authorization: `JWT ${loginUser.token}` } });
    const created = await authed.request<any>(
      gql`mutation($data: mutationPost!) { createPost(data: $data) { id title category author { email } } }`,
      {
        data: { title: 'Via client', category: 'tech', author: loginUser.user.id, _status: 'published' },
      },
    );
    expect(created.createPost).toMatchObject({
      title: 'Via client',
      category: 'tech',
      author: { email: 'client@example.com' },
    });
    const list = await client.request<any>(
      gql`query($w: Post_where) { Posts(where: $w) { docs { id title } totalDocs } }`,
      { w: { category: { equals: 'tech' } } },
    );
    expect(list.Posts).toEqual({ docs: [{ id: created.createPost.id, title: 'Via client' }], totalDocs: 1 });
  });

  test('errors reach the client with statusCode and field', async () => {
    const error = (await client
      .request(gql`mutation { createPost(data: { title: "no" }) { id } }`)
      .catch((e: ClientError) => e)) as ClientError & { response: any };
    expect(error).toBeInstanceOf(ClientError);
    expect(error.response.status).toBe(200);
    expect(error.response.errors[0]).toMatchObject({ path: ['createPost'], extensions: { statusCode: 401 } });
    const invalid = (await client
      .request(gql`{ Posts { docs { nope } } }`)
      .catch((e: ClientError) => e)) as ClientError & { response: any };
    // graphql-request asks for the GraphQL-over-HTTP media type, whose rule is a 400 for a query that cannot run.
    expect(invalid).toBeInstanceOf(ClientError);
    expect(invalid.response.status).toBe(400);
  });
});

test('cms generate:graphql-schema writes the SDL the server introspects to', async () => {
  const dir = tempDir();
  try {
    fs.writeFileSync(
      path.join(dir, 'cms.config.ts'),
      `export default { collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }] }`,
    );
    const run = Bun.spawnSync([
      'bun',
      path.join(import.meta.dir, '../../src/cli/main.ts'),
      'generate:graphql-schema',
      '--config',
      path.join(dir, 'cms.config.ts'),
      '--out',
      path.join(dir, 'out/schema.graphql'),
    ]);
    expect(run.exitCode).toBe(0);
    const written = buildSchema(fs.readFileSync(path.join(dir, 'out/schema.graphql'), 'utf8'));
    expect(Object.keys(written.getQueryType()!.getFields())).toEqual(
      expect.arrayContaining(['Post', 'Posts', 'countPosts', 'meUser']),
    );
    const t = await startTestServer({
      collections: [{ slug: 'posts', access: { read: () => true }, fields: [{ name: 'title', type: 'text' }] }],
    });
    try {
      const live = buildClientSchema(
        await new GraphQLClient(`${t.api}/graphql`).request<IntrospectionQuery>(getIntrospectionQuery()),
      );
      expect(printSchema(live)).toBe(printSchema(written));
    } finally {
      await t.stop();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
