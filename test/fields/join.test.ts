/** Join fields: documents pointing here, paged and sorted per document, under read access, batched per list; config mistakes. */
import { describe, expect, test } from 'bun:test';
import { runScenarios, startTestServer, type Scenario, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const config = (): UserConfig => ({
  collections: [
    {
      slug: 'categories',
      access: open,
      fields: [
        { name: 'name', type: 'text' },
        { name: 'posts', type: 'join', collection: 'posts', on: 'category', defaultLimit: 2, defaultSort: 'title' },
        { name: 'tagged', type: 'join', collection: 'posts', on: 'meta.tags' },
        { name: 'inSections', type: 'join', collection: 'posts', on: 'sections.cat' },
        { name: 'referencedBy', type: 'join', collection: 'posts', on: 'ref' },
        { name: 'publicOnly', type: 'join', collection: 'posts', on: 'category', where: { public: { equals: true } } },
      ],
    },
    {
      slug: 'posts',
      access: { ...open, read: ({ user }) => (user ? true : { public: { equals: true } }) },
      fields: [
        { name: 'title', type: 'text' },
        { name: 'public', type: 'checkbox' },
        { name: 'category', type: 'relationship', relationTo: 'categories' },
        {
          name: 'meta',
          type: 'group',
          fields: [{ name: 'tags', type: 'relationship', relationTo: 'categories', hasMany: true }],
        },
        { name: 'sections', type: 'array', fields: [{ name: 'cat', type: 'relationship', relationTo: 'categories' }] },
        { name: 'ref', type: 'relationship', relationTo: ['categories', 'posts'] },
      ],
    },
  ],
});

async function seed(t: TestServer) {
  for (const name of ['News', 'Sport', 'Empty']) await t.request('POST', '/categories', { body: { name } });
  const posts = [
    { title: 'c', public: true, category: 1, meta: { tags: [1, 2] }, ref: { relationTo: 'categories', value: 2 } },
    { title: 'a', public: true, category: 1, sections: [{ cat: 2 }, { cat: 1 }] },
    { title: 'b', public: false, category: 1, meta: { tags: [2] }, sections: [{ cat: 2 }] },
    { title: 'd', public: true, category: 2, ref: { relationTo: 'posts', value: 1 } },
  ];
  for (const body of posts) {
    const res = await t.request('POST', '/posts', { body });
    if (res.status !== 201) throw new Error(res.text);
  }
}

const titles = (join: { docs: { title: string }[] }) => join.docs.map((d) => d.title);

const scenarios: Scenario[] = [
  {
    name: 'depth 0: ids in the join order, paged by defaultLimit',
    method: 'GET',
    url: '/categories/1?depth=0',
    as: 'editor',
    status: 200,
    check: (res) => expect(res.body.posts).toEqual({ docs: [2, 3], hasNextPage: true, totalDocs: 3 }),
  },
  {
    name: 'depth 1: documents',
    method: 'GET',
    url: '/categories/1',
    as: 'editor',
    status: 200,
    check: (res) => expect(titles(res.body.posts)).toEqual(['a', 'b']),
  },
  {
    name: "under the reader's access to the joined collection",
    method: 'GET',
    url: '/categories/1',
    status: 200,
    check: (res) => {
      expect(titles(res.body.posts)).toEqual(['a', 'c']);
      expect(res.body.posts.totalDocs).toBe(2);
    },
  },
  {
    name: 'joins[name][limit|page|sort]',
    method: 'GET',
    url: '/categories/1?joins[posts][limit]=1&joins[posts][page]=2&joins[posts][sort]=-title',
    as: 'editor',
    status: 200,
    check: (res) => expect(res.body.posts).toMatchObject({ hasNextPage: true, totalDocs: 3, docs: [{ title: 'b' }] }),
  },
  {
    name: 'joins[name][where]',
    method: 'GET',
    url: '/categories/1?joins[posts][where][title][equals]=c',
    as: 'editor',
    status: 200,
    check: (res) => expect(titles(res.body.posts)).toEqual(['c']),
  },
  {
    name: "the join's own where",
    method: 'GET',
    url: '/categories/1?depth=0',
    as: 'editor',
    status: 200,
    check: (res) => expect(res.body.publicOnly.totalDocs).toBe(2),
  },
  {
    name: 'on a hasMany inside a group',
    method: 'GET',
    url: '/categories/2?depth=0',
    as: 'editor',
    status: 200,
    check: (res) => expect(res.body.tagged.docs.sort()).toEqual([1, 3]),
  },
  {
    name: 'on a field inside array rows',
    method: 'GET',
    url: '/categories/2?depth=0',
    as: 'editor',
    status: 200,
    check: (res) => expect(res.body.inSections.docs.sort()).toEqual([2, 3]),
  },
  {
    name: 'on a polymorphic relationship: only values pointing at this collection',
    method: 'GET',
    url: '/categories?depth=0&sort=name',
    as: 'editor',
    status: 200,
    check: (res) => {
      const byName = Object.fromEntries(res.body.docs.map((d: any) => [d.name, d.referencedBy.docs]));
      expect(byName).toEqual({ Empty: [], News: [], Sport: [1] });
    },
  },
  {
    name: 'joins=false leaves them out',
    method: 'GET',
    url: '/categories/1?joins=false',
    as: 'editor',
    status: 200,
    contains: ['"name":"News"'],
    notContains: ['"posts"', '"tagged"'],
  },
  {
    name: 'an unknown join name is a 400',
    method: 'GET',
    url: '/categories/1?joins[nope][limit]=1',
    status: 400,
    contains: ['"field":"joins.nope"', 'is not a join field of categories'],
  },
  {
    name: 'a join limit out of range is a 400',
    method: 'GET',
    url: '/categories/1?joins[posts][limit]=1000',
    status: 400,
    contains: ['"field":"joins.posts.limit"', 'must be a whole number from 1 to 100'],
  },
  {
    name: 'a value for a join in a write is ignored',
    method: 'PATCH',
    url: '/categories/3?depth=0',
    body: { name: 'Still empty', posts: [1, 2] },
    status: 200,
    events: { update: 1 },
    check: (res) => expect(res.body.doc.posts).toEqual({ docs: [], hasNextPage: false, totalDocs: 0 }),
  },
  {
    name: 'a join field cannot be queried',
    method: 'GET',
    url: '/categories?where[posts][exists]=true',
    status: 400,
    contains: ['"field":"posts"', 'is not stored, so it cannot be queried'],
  },
];

runScenarios('join fields', config, scenarios, { seed });

describe('join fields, batched and checked', () => {
  test('a list with joins makes one query per join field, not one per document', async () => {
    const t = await startTestServer(config());
    try {
      await seed(t);
      for (let i = 0; i < 20; i++) await t.request('POST', '/categories', { body: { name: `extra ${i}` } });
      const { store } = t.cms;
      const original = store.all.bind(store);
      let statements = 0;
      (store as any).all = (sql: string, params?: unknown[]) => {
        statements++;
        return original(sql, params as never);
      };
      const res = await t.request('GET', '/categories?limit=25&depth=1');
      (store as any).all = original;
      expect(res.status).toBe(200);
      expect(res.body.docs).toHaveLength(23);
      expect(statements).toBeLessThan(12);
    } finally {
      await t.stop();
    }
  });

  test('the Local API takes joins too', async () => {
    const t = await startTestServer(config());
    try {
      await seed(t);
      const { localAPI } = await import('../../src/local.ts');
      const api = localAPI(t.cms);
      const doc = await api.findByID({
        collection: 'categories',
        id: 1,
        depth: 0,
        joins: { posts: { limit: 3, sort: '-title' } },
      });
      expect(doc.posts).toEqual({ docs: [1, 3, 2], hasNextPage: false, totalDocs: 3 });
      const none = await api.find({ collection: 'categories', joins: false });
      expect(none.docs[0].posts).toBeUndefined();
    } finally {
      await t.stop();
    }
  });

  const broken: [string, Record<string, unknown>, string][] = [
    [
      'on a field that is not a relationship',
      { name: 'posts', type: 'join', collection: 'posts', on: 'title' },
      'collections[0].fields[1].on',
    ],
    [
      'on a relationship to another collection',
      { name: 'posts', type: 'join', collection: 'posts', on: 'ref' },
      'does not point at categories',
    ],
    [
      'on an unknown collection',
      { name: 'posts', type: 'join', collection: 'nope', on: 'x' },
      'collections[0].fields[1].collection',
    ],
  ];
  for (const [name, field, message] of broken) {
    test(`start-up stops on a join ${name}`, async () => {
      const bad: UserConfig = {
        collections: [
          { slug: 'categories', fields: [{ name: 'name', type: 'text' }, field as never] },
          {
            slug: 'posts',
            fields: [
              { name: 'title', type: 'text' },
              { name: 'ref', type: 'relationship', relationTo: ['posts'] },
            ],
          },
        ],
      };
      await expect(startTestServer(bad)).rejects.toThrow(message);
    });
  }
});
