/**
 * Full-text search (docs/search.md): `GET /:collection?search=` in the list shape, best first, every word
 * with the last as a prefix, phrases, case and diacritics folded, per locale, drafts apart, access rules
 * and field access as for lists, inside groups and arrays; `GET /search` across collections with escaped,
 * marked snippets; bad input is a 400. Runs on the engine of CMS_TEST_ENGINE.
 */
import { expect, test } from 'bun:test';
import { runScenarios, startTestServer, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';
import { reindexCollection } from '../../src/search/search-index.ts';
import { link, paragraph, quote, root, text } from '../fixtures/richtext/nodes.ts';

const config = (): UserConfig => ({
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  collections: [
    {
      slug: 'articles',
      drafts: true,
      admin: { useAsTitle: 'title' },
      search: { fields: ['title', 'body', 'seo.summary', 'sections.text', 'secret', 'story'] },
      access: {
        read: ({ user }) => (user ? true : { status: { equals: 'published' } }),
        create: ({ user }) => Boolean(user),
        update: ({ user }) => Boolean(user),
      },
      fields: [
        { name: 'title', type: 'text', localized: true },
        { name: 'body', type: 'markdown' },
        { name: 'seo', type: 'group', fields: [{ name: 'summary', type: 'textarea' }] },
        { name: 'sections', type: 'array', fields: [{ name: 'text', type: 'text' }] },
        { name: 'secret', type: 'text', access: { read: ({ user }) => user?.role === 'admin' } },
        { name: 'views', type: 'number' },
        { name: 'story', type: 'richText' },
      ],
    },
    {
      slug: 'notes',
      search: { fields: ['text'] },
      access: { read: ({ user }) => user?.role === 'admin' },
      fields: [{ name: 'text', type: 'text' }],
    },
    { slug: 'plain', access: { read: () => true }, fields: [{ name: 'text', type: 'text' }] },
  ],
});

const ids: Record<string, number> = {};
async function seed(t: TestServer) {
  const admin = await t.user('admin');
  const create = async (name: string, data: Record<string, unknown>, query = '') => {
    const res = await t.request('POST', `/articles${query}`, { token: admin.token, body: data });
    if (res.status !== 201) throw new Error(res.text);
    ids[name] = res.body.doc.id;
  };
  await create('cafe', {
    title: 'Café culture',
    body: 'Espresso and <b>pastries</b> in Vienna. Vienna loves coffee.',
    status: 'published',
    views: 1,
  });
  await create('coffee', {
    title: 'Coffee coffee coffee',
    body: 'All about coffee beans',
    status: 'published',
    views: 2,
  });
  await create('nested', {
    title: 'Gardening',
    seo: { summary: 'Tomatoes in a greenhouse' },
    sections: [{ text: 'Water the orchids daily' }],
    status: 'published',
    views: 3,
  });
  await create('hidden', { title: 'Quarterly report', secret: 'zeppelin plans', status: 'published', views: 4 });
  // Rich text: a word split into formatting runs, a quote right after a paragraph, a link's URL.
  await create('rich', {
    title: 'Flying',
    story: root(
      paragraph(text('The hel'), text('icopter', 1), text(' was '), text('striped', 2)),
      quote(text('Zebras everywhere')),
      paragraph(link('https://unrelated-domain.example/', [text('see more')])),
    ),
    status: 'published',
    views: 5,
  });
  await create('draftOnly', { title: 'Unreleased walrus story' }, '?draft=true');
  await t.request('PATCH', `/articles/${ids.nested}?locale=de`, {
    token: admin.token,
    body: { title: 'Gartenarbeit' },
  });
  await t.request('PATCH', `/articles/${ids.coffee}?draft=true`, {
    token: admin.token,
    body: { title: 'Tea instead' },
  });
  await t.request('POST', '/notes', { token: admin.token, body: { text: 'coffee note for admins' } });
}

const titles = (body: any) => body.docs.map((d: any) => d.title);

runScenarios(
  'search',
  config,
  [
    {
      name: 'rich text is indexed as its plain text: runs of one word joined, blocks apart, no URLs',
      method: 'GET',
      url: '/articles?search=helicopter%20zebra',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual(['Flying']),
    },
    {
      name: "rich text: a word is not glued to the next block's first word",
      method: 'GET',
      url: '/articles?search=stripedzebras',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual([]),
    },
    {
      name: 'rich text: link URLs and node properties are not indexed',
      method: 'GET',
      url: '/articles?search=unrelated',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual([]),
    },
    {
      name: 'every word must match, the last as a prefix; list shape',
      method: 'GET',
      url: '/articles?search=vienna%20coff',
      status: 200,
      check: (res) => {
        expect(titles(res.body)).toEqual(['Café culture']);
        expect(res.body).toMatchObject({ totalDocs: 1, page: 1, limit: 10 });
      },
    },
    {
      name: 'best first: the document saying it most ranks first',
      method: 'GET',
      url: '/articles?search=coffee',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual(['Coffee coffee coffee', 'Café culture']),
    },
    {
      name: 'sort overrides the rank',
      method: 'GET',
      url: '/articles?search=coffee&sort=-views',
      status: 200,
      check: (res) => expect(res.body.docs.map((d: any) => d.views)).toEqual([2, 1]),
    },
    {
      name: 'where narrows the matches',
      method: 'GET',
      url: '/articles?search=coffee&where[views][equals]=1',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual(['Café culture']),
    },
    {
      name: 'limit and page page through the ranked matches',
      method: 'GET',
      url: '/articles?search=coffee&limit=1&page=2',
      status: 200,
      check: (res) => {
        expect(titles(res.body)).toEqual(['Café culture']);
        expect(res.body).toMatchObject({ totalDocs: 2, totalPages: 2, hasPrevPage: true });
      },
    },
    {
      name: 'case and diacritics are ignored',
      method: 'GET',
      url: '/articles?search=CAFE',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual(['Café culture']),
    },
    {
      name: 'a quoted phrase matches only as a phrase',
      method: 'GET',
      url: '/articles?search=%22loves%20coffee%22',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual(['Café culture']),
    },
    {
      name: 'a phrase in the wrong order matches nothing',
      method: 'GET',
      url: '/articles?search=%22coffee%20loves%22',
      status: 200,
      check: (res) => expect(res.body.totalDocs).toBe(0),
    },
    {
      name: 'inside groups and arrays',
      method: 'GET',
      url: '/articles?search=greenhouse%20orchids',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual(['Gardening']),
    },
    {
      name: 'per locale',
      method: 'GET',
      url: '/articles?search=gartenarbeit&locale=de',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual(['Gartenarbeit']),
    },
    {
      name: "another locale's words do not match",
      method: 'GET',
      url: '/articles?search=gartenarbeit',
      status: 200,
      check: (res) => expect(res.body.totalDocs).toBe(0),
    },
    {
      name: 'anonymous readers do not find drafts',
      method: 'GET',
      url: '/articles?search=walrus',
      status: 200,
      check: (res) => expect(res.body.totalDocs).toBe(0),
    },
    {
      name: 'a signed-in reader finds the draft-only document',
      method: 'GET',
      url: '/articles?search=walrus',
      as: 'editor',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual(['Unreleased walrus story']),
    },
    {
      name: "a pending draft's words are found only with draft=true",
      method: 'GET',
      url: '/articles?search=tea&draft=true',
      as: 'editor',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual(['Tea instead']),
    },
    {
      name: 'without draft=true the live text is searched',
      method: 'GET',
      url: '/articles?search=tea',
      as: 'editor',
      status: 200,
      check: (res) => expect(res.body.totalDocs).toBe(0),
    },
    {
      name: 'a field the caller may not read never makes a match',
      method: 'GET',
      url: '/articles?search=zeppelin',
      as: 'editor',
      status: 200,
      check: (res) => expect(res.body.totalDocs).toBe(0),
    },
    {
      name: 'an admin may search it',
      method: 'GET',
      url: '/articles?search=zeppelin',
      as: 'admin',
      status: 200,
      check: (res) => expect(titles(res.body)).toEqual(['Quarterly report']),
    },
    {
      name: 'across collections: marked, escaped snippets and ranks',
      method: 'GET',
      url: '/search?q=vienna',
      status: 200,
      check: (res) => {
        expect(res.body.totalDocs).toBe(1);
        const [hit] = res.body.docs;
        expect(hit).toMatchObject({ collection: 'articles', id: ids.cafe, title: 'Café culture' });
        expect(hit.snippet).toContain('<mark>Vienna</mark>');
        expect(hit.snippet).toContain('&#60;b&#62;pastries');
        expect(hit.snippet).not.toContain('<b>');
        expect(hit.rank).toBeGreaterThan(0);
      },
    },
    {
      name: "across collections honours each collection's read access",
      method: 'GET',
      url: '/search?q=coffee',
      status: 200,
      check: (res) => expect(res.body.docs.map((d: any) => d.collection).sort()).toEqual(['articles', 'articles']),
    },
    {
      name: 'an admin also finds notes',
      method: 'GET',
      url: '/search?q=coffee&collections=notes,articles&limit=5',
      as: 'admin',
      status: 200,
      check: (res) =>
        expect(res.body.docs.map((d: any) => d.collection).sort()).toEqual(['articles', 'articles', 'notes']),
    },
    {
      name: 'limit caps the hits but not totalDocs',
      method: 'GET',
      url: '/search?q=coffee&limit=1',
      status: 200,
      check: (res) => {
        expect(res.body.docs).toHaveLength(1);
        expect(res.body.totalDocs).toBe(2);
      },
    },
    {
      name: 'query syntax characters are only separators',
      method: 'GET',
      url: `/articles?search=${encodeURIComponent('coffee* OR NEAR( "x : ^ -{} AND')}`,
      status: 200,
      // Every word, OR and NEAR too, must match as plain text: no document says them all.
      contains: ['"docs":[]', '"totalDocs":0'],
    },
    {
      name: 'nothing but syntax is a 400',
      method: 'GET',
      url: `/articles?search=${encodeURIComponent('*:^()')}`,
      status: 400,
      contains: ['needs at least one word'],
    },
    {
      name: 'a very long query is a 400',
      method: 'GET',
      url: `/articles?search=${'a'.repeat(600)}`,
      status: 400,
      contains: ['too long'],
    },
    {
      name: 'too many words is a 400',
      method: 'GET',
      url: `/articles?search=${Array.from({ length: 40 }, (_, i) => `w${i}`).join('+')}`,
      status: 400,
      contains: ['too many words'],
    },
    {
      name: 'a collection without a search option is a 400',
      method: 'GET',
      url: '/plain?search=x',
      status: 400,
      contains: ['not searchable'],
    },
    {
      name: '/search without q is a 400',
      method: 'GET',
      url: '/search',
      status: 400,
      contains: ['"field":"q"', '\\"q\\" must be text.'],
    },
    {
      name: '/search with an unknown collection is a 400',
      method: 'GET',
      url: '/search?q=x&collections=nope',
      status: 400,
      contains: ['Unknown collection'],
    },
    {
      name: '/search with a bad limit is a 400',
      method: 'GET',
      url: '/search?q=x&limit=1000',
      status: 400,
      contains: ['"field":"limit"', '\\"limit\\" must be between 1 and 100.'],
    },
  ],
  { seed },
);

test('a delete leaves the index, a rolled-back write never enters it, and reindex rebuilds it', async () => {
  const t = await startTestServer(config());
  try {
    const admin = await t.user('admin');
    const doc = (
      await t.request('POST', '/articles', {
        token: admin.token,
        body: { title: 'Platypus facts', status: 'published' },
      })
    ).body.doc;
    expect((await t.request('GET', '/articles?search=platypus')).body.totalDocs).toBe(1);
    const refused = await t.request('PATCH', `/articles/${doc.id}`, {
      token: admin.token,
      body: { title: 'Echidna facts', views: 'not a number' },
    });
    expect(refused.status).toBe(400);
    expect((await t.request('GET', '/articles?search=echidna')).body.totalDocs).toBe(0);
    // (other query strings from here on: the emptied index is no change the response cache can see)
    await t.cms.store.run('DELETE FROM "_search_articles"');
    expect((await t.request('GET', '/articles?search=platypus&limit=5')).body.totalDocs).toBe(0);
    const progress: number[] = [];
    await reindexCollection(t.cms, t.cms.config.collectionsBySlug.get('articles')!, (done) => progress.push(done));
    expect(progress.at(-1)).toBe(1);
    expect((await t.request('GET', '/articles?search=platypus&limit=6')).body.totalDocs).toBe(1);
    await t.request('DELETE', `/articles/${doc.id}`, { token: admin.token });
    expect((await t.cms.store.all('SELECT * FROM "_search_articles"')).length).toBe(0);
  } finally {
    await t.stop();
  }
});
