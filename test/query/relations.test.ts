/**
 * `where` through a relationship (`where[category.name][equals]=News`, as Payload allows), and on through
 * further relationships (`where[post.category.name][equals]=News`), single and hasMany, under the reader's
 * access to each related collection: its read filter limits which related documents can match, and its
 * fields the reader may not read are unknown fields (docs/payload-compatibility.md).
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import { localAPI } from '../../src/local.ts';
import type { UserConfig } from '../../src/config/types.ts';

const adminOnly = ({ user }: { user: { role: string } | null }) => user?.role === 'admin';
const config: UserConfig = {
  collections: [
    {
      slug: 'categories',
      access: { read: ({ user }) => (user ? true : { visible: { equals: true } }) },
      fields: [
        { name: 'name', type: 'text', localized: false },
        { name: 'visible', type: 'checkbox' },
        { name: 'secret', type: 'text', access: { read: adminOnly } },
      ],
    },
    { slug: 'vaults', fields: [{ name: 'code', type: 'text' }] },
    {
      slug: 'posts',
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'category', type: 'relationship', relationTo: 'categories' },
        { name: 'tags', type: 'relationship', relationTo: 'categories', hasMany: true },
        { name: 'vault', type: 'relationship', relationTo: 'vaults' },
      ],
    },
    {
      slug: 'comments',
      access: { read: () => true },
      fields: [
        { name: 'body', type: 'text' },
        { name: 'post', type: 'relationship', relationTo: 'posts' },
      ],
    },
    {
      slug: 'replies',
      access: { read: () => true },
      fields: [
        { name: 'body', type: 'text' },
        { name: 'comment', type: 'relationship', relationTo: 'comments' },
      ],
    },
  ],
};

async function fill(t: TestServer) {
  const api = localAPI(t.cms);
  await api.create({ collection: 'categories', data: { name: 'News', visible: true } });
  await api.create({ collection: 'categories', data: { name: 'Hidden', visible: false, secret: 's3cret' } });
  await api.create({ collection: 'categories', data: { name: 'Guides', visible: true } });
  await api.create({ collection: 'vaults', data: { code: 'v1' } });
  await api.create({ collection: 'posts', data: { title: 'A', category: 1, tags: [1, 3], vault: 1 } });
  await api.create({ collection: 'posts', data: { title: 'B', category: 2, tags: [2] } });
  await api.create({ collection: 'posts', data: { title: 'C', category: 3 } });
  await api.create({ collection: 'posts', data: { title: 'D' } });
  for (const [post, body] of [
    [1, 'on A'],
    [2, 'on B'],
    [3, 'on C'],
    [4, 'on D'],
  ] as const) {
    await api.create({ collection: 'comments', data: { body, post } });
    await api.create({ collection: 'replies', data: { body: `re ${body}`, comment: post } });
  }
}

/** The bodies of the `collection` documents the query finds, as `as` reads them. */
const findsBodies = (collection: string, query: string, bodies: string[], as?: string): Scenario => ({
  name: `${collection}: ${query}${as ? ` (${as})` : ''} → ${bodies.join(', ') || 'none'}`,
  method: 'GET',
  url: `/${collection}?depth=0&limit=100&sort=body&${query}`,
  as,
  status: 200,
  check: (res) => expect(res.body.docs.map((d: { body: string }) => d.body)).toEqual(bodies),
});

const finds = (query: string, titles: string[], as?: string): Scenario => ({
  name: `${query}${as ? ` (${as})` : ''} → ${titles.join(', ') || 'none'}`,
  method: 'GET',
  url: `/posts?depth=0&limit=100&sort=title&${query}`,
  as,
  status: 200,
  check: (res) => expect(res.body.docs.map((d: { title: string }) => d.title)).toEqual(titles),
});
const unknown = (query: string, field: string, as?: string, collection = 'posts'): Scenario => ({
  name: `${collection === 'posts' ? '' : `${collection}: `}${query}${as ? ` (${as})` : ''} is an unknown field`,
  method: 'GET',
  url: `/${collection}?${query}`,
  as,
  status: 400,
  check: (res) =>
    expect(res.body.errors).toEqual([{ message: `The field "${field}" does not exist.`, field, path: field }]),
});

runScenarios(
  'where through a relationship',
  config,
  [
    finds('where[category.name][equals]=News', ['A']),
    finds('where[category.name][like]=guid', ['C']),
    finds('where[category.name][in]=News,Guides', ['A', 'C']),
    finds('where[tags.name][equals]=Guides', ['A']),
    finds('where[or][0][category.name][equals]=News&where[or][1][title][equals]=D', ['A', 'D']),
    finds(
      `where=${encodeURIComponent(JSON.stringify({ and: [{ 'category.visible': { equals: true } }, { title: { not_equals: 'A' } }] }))}`,
      ['C'],
    ),
    // The related collection's read filter holds: anonymous readers never match through a hidden category.
    finds('where[category.name][equals]=Hidden', []),
    finds('where[tags.name][equals]=Hidden', []),
    finds('where[category.name][equals]=Hidden', ['B'], 'editor'),
    // A related field the reader may not read cannot be probed through the relationship either.
    unknown('where[category.secret][equals]=s3cret', 'category.secret'),
    unknown('where[category.secret][equals]=s3cret', 'category.secret', 'editor'),
    finds('where[category.secret][equals]=s3cret', ['B'], 'admin'),
    // A related collection the reader may not read at all: its fields are unknown.
    unknown('where[vault.code][equals]=v1', 'vault.code'),
    finds('where[vault.code][equals]=v1', ['A'], 'editor'),
    unknown('where[category.nope][equals]=1', 'category.nope'),
    unknown('where[title.name][equals]=x', 'title.name'),
    // Two and three relationships deep, with the reader's access at every hop.
    findsBodies('comments', 'where[post.category.name][equals]=News', ['on A']),
    findsBodies('comments', 'where[post.tags.name][equals]=Guides', ['on A']),
    findsBodies('comments', 'where[post.category.visible][equals]=true', ['on A', 'on C']),
    findsBodies('comments', 'where[post.category.name][equals]=Hidden', []),
    findsBodies('comments', 'where[post.category.name][equals]=Hidden', ['on B'], 'editor'),
    unknown('where[post.category.secret][equals]=s3cret', 'post.category.secret', undefined, 'comments'),
    findsBodies('comments', 'where[post.category.secret][equals]=s3cret', ['on B'], 'admin'),
    unknown('where[post.vault.code][equals]=v1', 'post.vault.code', undefined, 'comments'),
    findsBodies('comments', 'where[post.vault.code][equals]=v1', ['on A'], 'editor'),
    unknown('where[post.category.nope][equals]=1', 'post.category.nope', undefined, 'comments'),
    findsBodies('replies', 'where[comment.post.category.name][equals]=Guides', ['re on C']),
    findsBodies(
      'replies',
      'where[or][0][comment.post.category.name][equals]=News&where[or][1][comment.post.title][equals]=D',
      ['re on A', 're on D'],
    ),
    {
      name: 'the Local API queries two relationships deep',
      method: 'GET',
      url: '/comments?limit=1',
      status: 200,
      contains: ['"docs"'],
      check: async (_res, t) => {
        const found = await localAPI(t.cms).find({
          collection: 'comments',
          where: { 'post.category.name': { equals: 'Hidden' } },
          depth: 0,
        });
        expect(found.docs.map((d) => d.body)).toEqual(['on B']);
      },
    },
  ],
  { seed: fill },
);
