/** Blocks fields on a config shaped like Payload's website template: rows, ids, validation, queries, population, versions, locales. */
import { expect, test } from 'bun:test';
import { runScenarios, startTestServer, type TestServer } from '../harness.ts';
import { websiteConfig } from '../fixtures/website-template.ts';

const cta = (title: string, extra: Record<string, unknown> = {}) => ({ blockType: 'cta', title, ...extra });

async function seed(t: TestServer) {
  await t.request('POST', '/categories', { body: { title: 'News' } });
  await t.request('POST', '/posts', { body: { title: 'First', category: 1 } });
  await t.request('POST', '/posts', { body: { title: 'Second', category: 1 } });
  await t.request('POST', '/pages', {
    body: {
      title: 'Home',
      status: 'published',
      layout: [
        { id: 'keep-me', ...cta('Join us', { links: [{ link: { label: 'Go', url: '/go', reference: 2 } }] }) },
        {
          blockType: 'archive',
          blockName: 'Latest',
          title: 'Archive',
          categories: [1],
          featured: 1,
          nested: [{ blockType: 'quote', text: 'hi', post: 2 }],
        },
      ],
    },
  });
  await t.request('POST', '/pages', {
    body: {
      title: 'About',
      status: 'published',
      layout: [{ blockType: 'content', columns: [{ size: 'full', text: 'About us' }] }],
    },
  });
}

runScenarios(
  'blocks fields',
  websiteConfig,
  [
    {
      name: 'rows come back with their block type, name and string ids; a given id is kept',
      method: 'GET',
      url: '/pages/1?depth=0',
      status: 200,
      contains: [
        '"id":"keep-me"',
        '"blockType":"cta"',
        '"blockType":"archive"',
        '"blockName":"Latest"',
        '"blockType":"quote"',
      ],
      check: (res) => {
        for (const row of res.body.layout) expect(typeof row.id).toBe('string');
        expect(res.body.layout[1].nested[0].id).toMatch(/^[0-9a-f]{24}$/);
      },
    },
    {
      name: 'an unknown block type is a 400 naming the row',
      method: 'POST',
      url: '/pages',
      body: { title: 'X', layout: [cta('ok'), cta('ok'), { blockType: 'nope' }] },
      status: 400,
      contains: ['"field":"layout.2.blockType"', 'Unknown block type \\"nope\\"'],
    },
    {
      name: 'a row missing a required field of its block is a 400 naming the row and field',
      method: 'POST',
      url: '/pages',
      body: { title: 'X', layout: [{ blockType: 'cta' }] },
      status: 400,
      contains: ['"field":"layout.0.title"'],
    },
    {
      name: 'a row that is not an object is a 400 naming the row',
      method: 'POST',
      url: '/pages',
      body: { title: 'X', layout: [cta('a'), 'text'] },
      status: 400,
      contains: ['"field":"layout.1"'],
    },
    {
      name: 'a row without blockType is a 400',
      method: 'POST',
      url: '/pages',
      body: { title: 'X', layout: [{ title: 'a' }] },
      status: 400,
      contains: ['"field":"layout.0.blockType"'],
    },
    {
      name: 'more rows than maxRows is a 400 naming the field',
      method: 'POST',
      url: '/pages',
      body: { title: 'X', layout: Array.from({ length: 51 }, () => cta('a')) },
      status: 400,
      contains: ['"field":"layout"', 'at most 50 rows'],
    },
    {
      name: 'a bad value deep inside (array in a block) names its path',
      method: 'POST',
      url: '/pages',
      body: { title: 'X', layout: [{ blockType: 'content', columns: [{ size: 'huge' }] }] },
      status: 400,
      contains: ['"field":"layout.0.columns.0.size"'],
    },
    {
      name: 'a relationship inside a block must exist',
      method: 'POST',
      url: '/pages',
      body: { title: 'X', layout: [{ blockType: 'archive', featured: 99 }] },
      status: 400,
      contains: ['"field":"layout.0.featured"'],
    },
    {
      name: 'query by block type: any row matches',
      method: 'GET',
      url: '/pages?depth=0&where[layout.blockType][equals]=archive',
      status: 200,
      contains: ['"title":"Home"'],
      notContains: ['"title":"About"'],
    },
    {
      name: 'query a field inside rows with like',
      method: 'GET',
      url: '/pages?depth=0&where[layout.title][like]=join',
      status: 200,
      contains: ['"totalDocs":1', '"title":"Home"'],
    },
    {
      name: 'query inside an array inside a block',
      method: 'GET',
      url: '/pages?depth=0&where[layout.columns.text][contains]=about',
      status: 200,
      contains: ['"totalDocs":1', '"title":"About"'],
    },
    {
      name: 'query inside blocks nested in blocks',
      method: 'GET',
      url: '/pages?depth=0&where[layout.nested.text][equals]=hi',
      status: 200,
      contains: ['"totalDocs":1', '"title":"Home"'],
    },
    {
      name: 'not_equals matches documents where no row matches',
      method: 'GET',
      url: '/pages?depth=0&where[layout.blockType][not_equals]=archive',
      status: 200,
      contains: ['"totalDocs":1', '"title":"About"'],
    },
    {
      name: 'a relationship inside rows is queryable by id',
      method: 'GET',
      url: '/pages?depth=0&where[layout.links.link.reference][equals]=2',
      status: 200,
      contains: ['"totalDocs":1'],
    },
    {
      name: 'an unknown field inside rows is a 400',
      method: 'GET',
      url: '/pages?where[layout.nothing][equals]=1',
      status: 400,
      contains: ['layout.nothing'],
    },
    {
      name: 'depth 2 populates relationships inside blocks, arrays and groups, and their own relationships',
      method: 'GET',
      url: '/pages/1?depth=2',
      status: 200,
      check: (res) => {
        const [first, archive] = res.body.layout;
        expect(first.links[0].link.reference.title).toBe('Second');
        expect(first.links[0].link.reference.category.title).toBe('News');
        expect(archive.categories[0].title).toBe('News');
        expect(archive.featured.title).toBe('First');
        expect(archive.nested[0].post.title).toBe('Second');
      },
    },
    {
      name: 'depth 0 leaves ids',
      method: 'GET',
      url: '/pages/1?depth=0',
      status: 200,
      contains: ['"featured":1', '"reference":2'],
    },
  ],
  { seed },
);

test('population reads each related collection once per level, however many pages and rows', async () => {
  const t = await startTestServer(websiteConfig());
  try {
    await seed(t);
    for (let i = 0; i < 40; i++) {
      await t.request('POST', '/pages', {
        body: {
          title: `P${i}`,
          status: 'published',
          layout: Array.from({ length: 5 }, () => ({
            blockType: 'archive',
            featured: 1 + (i % 2),
            categories: [1],
            nested: [{ blockType: 'quote', post: 1 }],
          })),
        },
      });
    }
    const store = t.cms.store as unknown as { all: (...args: unknown[]) => Promise<unknown[]> };
    const original = store.all;
    const statements: string[] = [];
    store.all = function (this: unknown, ...args: unknown[]) {
      statements.push(String(args[0]));
      return original.apply(this, args);
    };
    const res = await t.request('GET', '/pages?depth=2&limit=100', { headers: { 'cache-control': 'no-cache' } });
    store.all = original;
    expect(res.status).toBe(200);
    expect(res.body.docs.length).toBe(42);
    const byTable = (table: string) => statements.filter((s) => s.includes(`FROM "${table}" WHERE`)).length;
    // Level 1 reads posts and categories once each; level 2 reads the posts' categories once.
    expect(byTable('posts')).toBe(1);
    expect(byTable('categories')).toBe(2);
  } finally {
    await t.stop();
  }
});

test('versions keep rows and their ids; restoring brings them back', async () => {
  const t = await startTestServer(websiteConfig());
  try {
    await seed(t);
    const before = (await t.request('GET', '/pages/1?depth=0')).body.layout;
    await t.request('PATCH', '/pages/1', { body: { layout: [cta('Changed')] } });
    const versions = (await t.request('GET', '/pages/versions?where[parent][equals]=1&sort=createdAt&depth=0')).body
      .docs;
    const restored = await t.request('POST', `/pages/versions/${versions[0].id}`, {});
    expect(restored.status).toBe(200);
    const after = (await t.request('GET', '/pages/1?depth=0')).body.layout;
    expect(after.map((r: { id: string }) => r.id)).toEqual(before.map((r: { id: string }) => r.id));
    expect(after).toEqual(before);
  } finally {
    await t.stop();
  }
});

test('localized fields inside blocks keep each locale per row, with fallback', async () => {
  const t = await startTestServer(websiteConfig());
  try {
    await seed(t);
    const en = (await t.request('GET', '/pages/1?depth=0')).body.layout;
    const de = en.map((row: Record<string, unknown>) =>
      row.blockType === 'cta' ? { ...row, title: 'Mach mit' } : row,
    );
    expect((await t.request('PATCH', '/pages/1?locale=de', { body: { layout: de } })).status).toBe(200);
    expect((await t.request('GET', '/pages/1?depth=0&locale=de')).body.layout[0].title).toBe('Mach mit');
    expect((await t.request('GET', '/pages/1?depth=0&locale=en')).body.layout[0].title).toBe('Join us');
    const all = (await t.request('GET', '/pages/1?depth=0&locale=all')).body.layout[0].title;
    expect(all).toEqual({ en: 'Join us', de: 'Mach mit' });
    // A page written only in English reads its English title in German (fallback).
    expect((await t.request('GET', '/pages/2?depth=0&locale=de')).body.layout[0].columns[0].text).toBe('About us');
    expect(
      (await t.request('GET', '/pages?depth=0&locale=de&where[layout.title][equals]=Mach mit')).body.totalDocs,
    ).toBe(1);
  } finally {
    await t.stop();
  }
});

test('read hooks of documents populated two levels down reach every block row that shows them', async () => {
  const open = { read: () => true, create: () => true };
  const t = await startTestServer({
    collections: [
      {
        slug: 'teams',
        access: open,
        hooks: { afterRead: [({ doc }) => ({ ...doc, badge: `team ${doc?.name}` })] },
        fields: [{ name: 'name', type: 'text' }],
      },
      {
        slug: 'authors',
        access: open,
        fields: [
          { name: 'name', type: 'text' },
          { name: 'team', type: 'relationship', relationTo: 'teams' },
        ],
      },
      {
        slug: 'pages',
        access: open,
        fields: [
          {
            name: 'layout',
            type: 'blocks',
            blocks: [
              {
                slug: 'cards',
                fields: [
                  { name: 'first', type: 'relationship', relationTo: 'authors' },
                  { name: 'many', type: 'relationship', relationTo: 'authors', hasMany: true },
                ],
              },
            ],
          },
        ],
      },
    ],
  });
  try {
    await t.request('POST', '/teams', { body: { name: 'Red' } });
    await t.request('POST', '/authors', { body: { name: 'Ann', team: 1 } });
    await t.request('POST', '/authors', { body: { name: 'Bob', team: 1 } });
    const layout = Array.from({ length: 6 }, (_, i) => ({ blockType: 'cards', first: 1 + (i % 2), many: [2, 1] }));
    expect((await t.request('POST', '/pages', { body: { layout } })).status).toBe(201);
    const rows = (await t.request('GET', '/pages/1?depth=2')).body.layout;
    expect(rows).toHaveLength(6);
    for (const [i, row] of rows.entries()) {
      expect(row.first).toMatchObject({ name: i % 2 ? 'Bob' : 'Ann', team: { name: 'Red', badge: 'team Red' } });
      expect(row.many.map((a: { name: string; team: { badge: string } }) => `${a.name} ${a.team.badge}`)).toEqual([
        'Bob team Red',
        'Ann team Red',
      ]);
    }
    // One level less: the authors are shown, their team stays an id.
    expect((await t.request('GET', '/pages/1?depth=1')).body.layout[0].first.team).toBe(1);
  } finally {
    await t.stop();
  }
});
