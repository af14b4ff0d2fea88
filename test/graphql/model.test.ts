/**
 * GraphQL over the content model's polymorphic relationships and join fields (docs/graphql.md): the
 * `{ relationTo, value }` object with its enum and union, writes with the relationship input, join
 * fields as `{ docs, hasNextPage, totalDocs }` with Payload's where/limit/page/sort arguments, access of
 * the joined collection, and the batched reads (one statement per collection for a whole list).
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { statementsDuring } from '../support/statements.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const config: UserConfig = {
  collections: [
    {
      slug: 'pages',
      access: open,
      fields: [
        { name: 'title', type: 'text' },
        { name: 'mentions', type: 'join', collection: 'links', on: 'target', defaultLimit: 2 },
      ],
    },
    // Anonymous readers see only public posts.
    {
      slug: 'posts',
      access: { ...open, read: ({ user }) => (user ? true : { public: { equals: true } }) },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'public', type: 'checkbox' },
        { name: 'comments', type: 'join', collection: 'comments', on: 'post' },
      ],
    },
    {
      slug: 'comments',
      access: { ...open, read: ({ user }) => (user ? true : { approved: { equals: true } }) },
      fields: [
        { name: 'text', type: 'text' },
        { name: 'approved', type: 'checkbox' },
        { name: 'post', type: 'relationship', relationTo: 'posts' },
      ],
    },
    {
      slug: 'links',
      access: open,
      fields: [
        { name: 'label', type: 'text' },
        { name: 'target', type: 'relationship', relationTo: ['pages', 'posts'] },
        { name: 'related', type: 'relationship', relationTo: ['pages', 'posts'], hasMany: true },
      ],
    },
  ],
};

const gql = (query: string, variables?: Record<string, unknown>) => ({ query, variables });
/** A GraphQL read: it fires no event. */
const post = (query: string, variables?: Record<string, unknown>) => ({
  method: 'POST' as const,
  url: '/graphql',
  status: 200,
  body: gql(query, variables),
  events: { '*': 0 },
});

async function seed(t: TestServer) {
  const admin = await t.user('admin');
  const as = { token: admin.token };
  for (const title of ['Home', 'About']) await t.request('POST', '/pages', { ...as, body: { title } });
  await t.request('POST', '/posts', { ...as, body: { title: 'Open post', public: true } });
  await t.request('POST', '/posts', { ...as, body: { title: 'Secret post', public: false } });
  for (const [text, approved, p] of [
    ['first', true, 1],
    ['second', true, 1],
    ['third', false, 1],
    ['fourth', true, 2],
  ] as const) {
    await t.request('POST', '/comments', { ...as, body: { text, approved, post: p } });
  }
  for (const body of [
    {
      label: 'one',
      target: { relationTo: 'pages', value: 2 },
      related: [
        { relationTo: 'posts', value: 1 },
        { relationTo: 'pages', value: 1 },
      ],
    },
    { label: 'two', target: { relationTo: 'posts', value: 2 }, related: [{ relationTo: 'posts', value: 2 }] },
    { label: 'three', target: { relationTo: 'pages', value: 2 } },
    { label: 'four', target: { relationTo: 'pages', value: 2 } },
  ]) {
    const res = await t.request('POST', '/links', { ...as, body });
    if (res.status !== 201) throw new Error(res.text);
  }
}

const scenarios: Scenario[] = [
  {
    name: "a polymorphic relationship is Payload's { relationTo, value } object with a union of the document types",
    ...post(
      '{ Links(sort: "id") { docs { label target { relationTo value { __typename ... on Page { title } ... on Post { title } } } related { relationTo value { ... on Page { id } ... on Post { id title } } } } } }',
    ),
    as: 'admin',
    check: (res) => {
      expect(res.body.errors).toBeUndefined();
      const [one, two] = res.body.data.Links.docs;
      expect(one.target).toEqual({ relationTo: 'pages', value: { __typename: 'Page', title: 'About' } });
      expect(one.related).toEqual([
        { relationTo: 'posts', value: { id: 1, title: 'Open post' } },
        { relationTo: 'pages', value: { id: 1 } },
      ]);
      expect(two.target).toEqual({ relationTo: 'posts', value: { __typename: 'Post', title: 'Secret post' } });
    },
  },
  {
    name: 'a document the reader may not read is null (left out of a list), as in Payload',
    ...post('{ Links(where: { label: { equals: "two" } }) { docs { target { relationTo } related { relationTo } } } }'),
    check: (res) => expect(res.body.data.Links.docs[0]).toEqual({ target: null, related: [] }),
  },
  {
    name: "the types carry Payload's names",
    ...post(
      '{ a: __type(name: "Link_Target_Relationship") { fields { name type { name kind } } } b: __type(name: "Link_Target") { kind possibleTypes { name } } c: __type(name: "Link_Target_RelationTo") { enumValues { name } } d: __type(name: "mutationLink_TargetRelationshipInput") { inputFields { name type { name } } } }',
    ),
    check: (res) => {
      expect(res.body.data.a.fields).toEqual([
        { name: 'relationTo', type: { name: 'Link_Target_RelationTo', kind: 'ENUM' } },
        { name: 'value', type: { name: 'Link_Target', kind: 'UNION' } },
      ]);
      expect(res.body.data.b).toEqual({ kind: 'UNION', possibleTypes: [{ name: 'Page' }, { name: 'Post' }] });
      expect(res.body.data.c.enumValues.map((v: { name: string }) => v.name)).toEqual(['pages', 'posts']);
      expect(res.body.data.d.inputFields).toEqual([
        { name: 'relationTo', type: { name: 'mutationLink_TargetRelationshipInputRelationTo' } },
        { name: 'value', type: { name: 'JSON' } },
      ]);
    },
  },
  {
    name: 'a write takes the relationship input and runs the create operation',
    ...post(
      'mutation { createLink(data: { label: "gql", target: { relationTo: posts, value: 1 }, related: [{ relationTo: pages, value: 2 }] }) { target { relationTo value { ... on Post { title } } } related { value { ... on Page { title } } } } }',
    ),
    as: 'admin',
    events: { create: 1 },
    contains: [
      '"target":{"relationTo":"posts","value":{"title":"Open post"}}',
      '"related":[{"value":{"title":"About"}}]',
    ],
  },
  {
    name: 'a write pointing at a document that does not exist is refused by the operation',
    ...post('mutation { createLink(data: { target: { relationTo: posts, value: 999 } }) { id } }'),
    as: 'admin',
    events: {},
    contains: ['"field":"target"', '"data":{"createLink":null}'],
    check: (res) => expect(res.body.errors[0].extensions.statusCode).toBe(400),
  },
  {
    name: 'a join field is { docs, hasNextPage, totalDocs } of the joined documents, with the field defaults (newest first, 2)',
    ...post('{ Page(id: 2) { mentions { docs { label } hasNextPage totalDocs } } }'),
    contains: ['"mentions":{"docs":[{"label":"four"},{"label":"three"}],"hasNextPage":true,"totalDocs":3}'],
  },
  {
    name: "a join takes Payload's where, limit, page and sort",
    ...post(
      '{ Page(id: 2) { mentions(where: { label: { not_equals: "three" } }, sort: "-label", limit: 1, page: 2) { docs { label } hasNextPage totalDocs } } }',
    ),
    contains: ['"mentions":{"docs":[{"label":"four"}],"hasNextPage":false,"totalDocs":2}'],
  },
  {
    name: "join documents follow the reader's access to the joined collection",
    ...post('{ Post(id: 1) { comments { docs { text } totalDocs } } }'),
    contains: ['"comments":{"docs":[{"text":"second"},{"text":"first"}],"totalDocs":2}'],
  },
  {
    name: "bad join arguments are a 400 in the operation's words",
    ...post('{ Post(id: 1) { comments(limit: 1000) { totalDocs } } }'),
    check: (res) => {
      expect(res.body.errors[0].extensions.statusCode).toBe(400);
      expect(res.body.errors[0].message).toContain('joins.comments.limit');
    },
  },
  {
    name: 'join fields are not in the write inputs',
    ...post('{ __type(name: "mutationPost") { inputFields { name } } }'),
    check: (res) =>
      expect(res.body.data.__type.inputFields.map((f: { name: string }) => f.name)).not.toContain('comments'),
  },
  {
    name: 'a list of posts with their joined comments (with arguments) and polymorphic targets reads each collection once',
    ...post('{ Posts { docs { title } } }'),
    as: 'admin',
    check: async (_res, t) => {
      const { token } = await t.session('admin');
      const ask = (query: string) =>
        t.request('POST', '/graphql', { token, body: gql(query), headers: { 'x-uncached': String(Math.random()) } });
      const joins = await statementsDuring(t, async () => {
        const res = await ask(
          '{ Posts { docs { comments(sort: "text", limit: 5) { docs { text post { title } } } } } }',
        );
        expect(res.body.data.Posts.docs.map((d: any) => d.comments.docs.map((c: any) => c.text))).toEqual([
          ['fourth'],
          ['first', 'second', 'third'],
        ]);
      });
      expect(joins.filter((sql) => /FROM "comments"/.test(sql))).toHaveLength(1);
      const targets = await statementsDuring(t, async () => {
        const res = await ask(
          '{ Links { docs { target { value { ... on Page { title } ... on Post { title } } } related { relationTo } } } }',
        );
        expect(res.body.errors).toBeUndefined();
      });
      expect(targets.filter((sql) => /FROM "pages"/.test(sql))).toHaveLength(1);
      expect(targets.filter((sql) => /FROM "posts"/.test(sql))).toHaveLength(1);
    },
  },
];

runScenarios('GraphQL: polymorphic relationships and joins', config, scenarios, { seed });
