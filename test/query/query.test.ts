/** where / sort / limit / page / depth (docs/documents.md): every operator, both syntaxes, bad input. */
import { describe, expect, test, beforeAll, afterAll } from 'bun:test';
import { startTestServer, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const config: UserConfig = {
  collections: [
    {
      slug: 'authors',
      access: open,
      fields: [
        { name: 'name', type: 'text' },
        { name: 'mentor', type: 'relationship', relationTo: 'authors' },
      ],
    },
    {
      slug: 'books',
      access: open,
      fields: [
        { name: 'title', type: 'text' },
        { name: 'pages', type: 'number' },
        { name: 'inPrint', type: 'checkbox' },
        { name: 'published', type: 'date' },
        { name: 'genre', type: 'select', options: ['fiction', 'poetry', 'essay'] },
        { name: 'tags', type: 'select', options: ['a', 'b', 'c'], hasMany: true },
        { name: 'author', type: 'relationship', relationTo: 'authors' },
        { name: 'coauthors', type: 'relationship', relationTo: 'authors', hasMany: true },
        { name: 'seo', type: 'group', fields: [{ name: 'title', type: 'text' }] },
        { name: 'chapters', type: 'array', fields: [{ name: 'name', type: 'text' }] },
        { name: 'hiddenNote', type: 'text', hidden: true },
      ],
    },
  ],
};

const q = (t: TestServer, query: string) => t.request('GET', `/books?depth=0&limit=100&${query}`);
const titles = (res: { body: { docs: { title: string }[] } }) => res.body.docs.map((d) => d.title).sort();

describe('query', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(config);
    for (const name of ['Ann', 'Bob', 'Cy']) await t.request('POST', '/authors', { body: { name } });
    await t.request('PATCH', '/authors/2', { body: { mentor: 1 } });
    const books = [
      {
        title: 'Alpha Beta',
        pages: 100,
        inPrint: true,
        published: '2020-01-01',
        genre: 'fiction',
        tags: ['a', 'b'],
        author: 1,
        coauthors: [2, 3],
        seo: { title: 'first' },
        chapters: [{ name: 'one' }, { name: 'two' }],
        hiddenNote: 'h1',
      },
      {
        title: 'Gamma',
        pages: 250,
        inPrint: false,
        published: '2021-06-15',
        genre: 'poetry',
        tags: ['c'],
        author: 2,
        coauthors: [],
        seo: { title: 'second' },
        chapters: [{ name: 'three' }],
      },
      { title: 'Delta 100%_', pages: 300, genre: 'essay', author: 2 },
      { title: 'epsilon', pages: 50, inPrint: true, published: '2022-03-03', tags: ['a'] },
    ];
    for (const b of books) {
      const res = await t.request('POST', '/books', { body: b });
      if (res.status !== 201) throw new Error(res.text);
      t.clock.advance(1000);
    }
  });
  afterAll(() => t.stop());

  const cases: [string, string, string[]][] = [
    ['equals', 'where[title][equals]=Gamma', ['Gamma']],
    ['not_equals includes empty values', 'where[genre][not_equals]=fiction', ['Delta 100%_', 'Gamma', 'epsilon']],
    ['gt on numbers', 'where[pages][gt]=100', ['Delta 100%_', 'Gamma']],
    ['gte', 'where[pages][gte]=100', ['Alpha Beta', 'Delta 100%_', 'Gamma']],
    ['lt', 'where[pages][lt]=100', ['epsilon']],
    ['lte', 'where[pages][lte]=100', ['Alpha Beta', 'epsilon']],
    ['greater_than alias', 'where[pages][greater_than]=250', ['Delta 100%_']],
    ['less_than_equal alias', 'where[pages][less_than_equal]=50', ['epsilon']],
    ['in (comma list)', 'where[genre][in]=poetry,essay', ['Delta 100%_', 'Gamma']],
    ['in (array form)', 'where[genre][in][0]=poetry&where[genre][in][1]=fiction', ['Alpha Beta', 'Gamma']],
    ['not_in', 'where[genre][not_in]=poetry,essay', ['Alpha Beta', 'epsilon']],
    ['like: every word, any order, case-insensitive', 'where[title][like]=beta%20ALPHA', ['Alpha Beta']],
    ['not_like', 'where[title][not_like]=alpha', ['Delta 100%_', 'Gamma', 'epsilon']],
    ['contains is a case-insensitive substring', 'where[title][contains]=ELT', ['Delta 100%_']],
    ['contains escapes % and _', 'where[title][contains]=100%25_', ['Delta 100%_']],
    ['exists=true', 'where[published][exists]=true', ['Alpha Beta', 'Gamma', 'epsilon']],
    ['exists=false', 'where[published][exists]=false', ['Delta 100%_']],
    ['equals=null matches empty values', 'where[genre][equals]=null', ['epsilon']],
    ['checkbox equals', 'where[inPrint][equals]=true', ['Alpha Beta', 'epsilon']],
    ['date gt', 'where[published][gt]=2021-01-01', ['Gamma', 'epsilon']],
    ['relationship equals id', 'where[author][equals]=2', ['Delta 100%_', 'Gamma']],
    ['hasMany relationship: any item', 'where[coauthors][equals]=3', ['Alpha Beta']],
    ['hasMany select in', 'where[tags][in]=b,c', ['Alpha Beta', 'Gamma']],
    ['hasMany not_equals', 'where[tags][not_equals]=a', ['Delta 100%_', 'Gamma']],
    ['hasMany exists=false (empty list)', 'where[coauthors][exists]=false', ['Delta 100%_', 'Gamma', 'epsilon']],
    ['group dot path', 'where[seo.title][equals]=second', ['Gamma']],
    ['array row field: any row', 'where[chapters.name][equals]=two', ['Alpha Beta']],
    ['id in', 'where[id][in]=1,3', ['Alpha Beta', 'Delta 100%_']],
    ['createdAt comparison', 'where[createdAt][gte]=2026-01-01T00:00:02.000Z', ['Delta 100%_', 'epsilon']],
    ['two conditions combine with and', 'where[pages][gt]=60&where[inPrint][equals]=true', ['Alpha Beta']],
    ['or list', 'where[or][0][title][equals]=Gamma&where[or][1][pages][lt]=60', ['Gamma', 'epsilon']],
    [
      'nested and inside or',
      'where[or][0][and][0][genre][equals]=fiction&where[or][0][and][1][pages][equals]=100&where[or][1][title][equals]=epsilon',
      ['Alpha Beta', 'epsilon'],
    ],
    [
      'JSON where with or',
      `where=${encodeURIComponent(JSON.stringify({ or: [{ title: { equals: 'Gamma' } }, { genre: { equals: 'essay' } }] }))}`,
      ['Delta 100%_', 'Gamma'],
    ],
    ['injection attempt is just a value', `where[title][equals]=${encodeURIComponent("' OR 1=1 --")}`, []],
    ['injection in like is just a value', `where[title][like]=${encodeURIComponent('%" OR "1"="1')}`, []],
  ];
  for (const [name, query, expected] of cases) {
    test(name, async () => {
      const res = await q(t, query);
      expect(res.status).toBe(200);
      expect(titles(res)).toEqual(expected.sort());
      expect(res.body.totalDocs).toBe(expected.length);
    });
  }

  const bad: [string, string, string | null][] = [
    ['unknown field', 'where[nope][equals]=1', 'nope'],
    ['hidden field is unknown to clients', 'where[hiddenNote][equals]=h1', 'hiddenNote'],
    ['unknown operator', 'where[title][matches]=x', 'title'],
    ['not a number', 'where[pages][gt]=lots', 'pages'],
    ['not a date', 'where[published][gt]=someday', 'published'],
    ['exists needs true or false', 'where[title][exists]=maybe', 'title'],
    ['malformed JSON where', 'where=%7Bnope', 'where'],
    ['limit above 100', 'limit=101', 'limit'],
    ['limit 0', 'limit=0', 'limit'],
    ['limit not a number', 'limit=ten', 'limit'],
    ['page 0', 'page=0', 'page'],
    ['negative depth', 'depth=-1', 'depth'],
    ['unknown sort field', 'sort=-nope', 'nope'],
    ['condition without operator', 'where[title]=x', 'title'],
  ];
  for (const [name, query, field] of bad) {
    test(`400: ${name}`, async () => {
      const res = await t.request('GET', `/books?${query}`);
      expect(res.status).toBe(400);
      if (field) expect(res.body.errors[0].field).toBe(field);
    });
  }

  test('deep or nesting is refused with a 400, not a crash', async () => {
    let where: Record<string, unknown> = { title: { equals: 'x' } };
    for (let i = 0; i < 30; i++) where = { or: [where] };
    const res = await t.request('GET', `/books?where=${encodeURIComponent(JSON.stringify(where))}`);
    expect(res.status).toBe(400);
  });
  test('too many conditions are refused', async () => {
    const or = Array.from({ length: 150 }, (_, i) => ({ pages: { equals: i } }));
    const res = await t.request('GET', `/books?where=${encodeURIComponent(JSON.stringify({ or }))}`);
    expect(res.status).toBe(400);
  });
  test('huge limit values are a 400', async () => {
    expect((await t.request('GET', '/books?limit=99999999999999999999')).status).toBe(400);
  });

  test('sort ascending and descending, with pagination shape', async () => {
    const asc = await t.request('GET', '/books?sort=pages&limit=2&depth=0');
    expect(asc.body.docs.map((d: { pages: number }) => d.pages)).toEqual([50, 100]);
    expect(asc.body).toMatchObject({
      totalDocs: 4,
      limit: 2,
      page: 1,
      totalPages: 2,
      hasNextPage: true,
      hasPrevPage: false,
      nextPage: 2,
      prevPage: null,
    });
    const page2 = await t.request('GET', '/books?sort=pages&limit=2&page=2&depth=0');
    expect(page2.body.docs.map((d: { pages: number }) => d.pages)).toEqual([250, 300]);
    expect(page2.body).toMatchObject({ page: 2, hasNextPage: false, hasPrevPage: true, nextPage: null, prevPage: 1 });
    const desc = await t.request('GET', '/books?sort=-pages&limit=1&depth=0');
    expect(desc.body.docs[0].pages).toBe(300);
  });
  test('default: limit 10, page 1, newest first', async () => {
    const res = await t.request('GET', '/books?depth=0');
    expect(res.body.limit).toBe(10);
    expect(res.body.page).toBe(1);
    expect(res.body.docs[0].title).toBe('epsilon');
  });
  test('a page past the end is empty, not an error', async () => {
    const res = await t.request('GET', '/books?page=9');
    expect(res.status).toBe(200);
    expect(res.body.docs).toEqual([]);
  });

  test('depth 0 returns ids; depth 1 documents; depth 2 their relations too', async () => {
    const d0 = await t.request('GET', '/books/2?depth=0');
    expect(d0.body.author).toBe(2);
    const d1 = await t.request('GET', '/books/2?depth=1');
    expect(d1.body.author).toMatchObject({ id: 2, name: 'Bob', mentor: 1 });
    const d2 = await t.request('GET', '/books/2?depth=2');
    expect(d2.body.author.mentor).toMatchObject({ id: 1, name: 'Ann' });
    const many = await t.request('GET', '/books/1?depth=1');
    expect(many.body.coauthors.map((a: { name: string }) => a.name)).toEqual(['Bob', 'Cy']);
  });
  test('depth above 3 is capped at 3', async () => {
    const res = await t.request('GET', '/books/2?depth=10');
    expect(res.status).toBe(200);
  });
  test('population is batched: one query per related collection per level, not per document', async () => {
    const statements: string[] = [];
    const original = t.cms.store.all;
    t.cms.store.all = (sql, params) => {
      statements.push(sql);
      return original(sql, params);
    };
    try {
      const res = await t.request('GET', '/books?depth=1&limit=100');
      expect(res.status).toBe(200);
    } finally {
      t.cms.store.all = original;
    }
    const authorQueries = statements.filter((s) => s.startsWith('SELECT * FROM "authors"'));
    expect(authorQueries.length).toBeLessThanOrEqual(1);
  });
  test('relationship to a missing document is a 400 naming the field', async () => {
    const res = await t.request('POST', '/books', { body: { title: 'x', author: 999 } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].field).toBe('author');
  });
});
