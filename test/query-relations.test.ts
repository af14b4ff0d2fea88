/**
 * `where` through a relationship (`where[category.name][equals]=News`, as Payload allows), one level deep,
 * single and hasMany, under the reader's access to the related collection: its read filter limits which
 * related documents can match, and its fields the reader may not read are unknown fields
 * (docs/payload-compatibility.md).
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from './harness.ts';
import { localAPI } from '../src/local.ts';
import type { UserConfig } from '../src/config/types.ts';

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
}

const finds = (query: string, titles: string[], as?: string): Scenario => ({
  name: `${query}${as ? ` (${as})` : ''} → ${titles.join(', ') || 'none'}`,
  method: 'GET',
  url: `/posts?depth=0&limit=100&sort=title&${query}`,
  as,
  status: 200,
  check: (res) => expect(res.body.docs.map((d: { title: string }) => d.title)).toEqual(titles),
});
const unknown = (query: string, field: string, as?: string): Scenario => ({
  name: `${query}${as ? ` (${as})` : ''} is an unknown field`,
  method: 'GET',
  url: `/posts?${query}`,
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
  ],
  { seed: fill },
);
