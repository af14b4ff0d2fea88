/** `draft=true` lists (logged in) filter, count and sort on pending drafts; anonymous ones read what is live. */
import { describe, expect, test, beforeAll, afterAll } from 'bun:test';
import { startTestServer, type Session, type TestServer } from '../harness.ts';

describe('draft lists', () => {
  let t: TestServer;
  let editor: Session;
  beforeAll(async () => {
    t = await startTestServer({
      localization: { locales: ['en', 'de'], defaultLocale: 'en' },
      collections: [
        {
          slug: 'posts',
          drafts: true,
          access: { read: () => true },
          fields: [
            { name: 'title', type: 'text', localized: true },
            { name: 'rank', type: 'number' },
            { name: 'featured', type: 'checkbox' },
            { name: 'tags', type: 'select', options: ['a', 'b'], hasMany: true },
          ],
        },
      ],
    });
    editor = await t.user('editor');
    const make = async (title: string, rank: number) =>
      (
        await t.request('POST', '/posts', {
          token: editor.token,
          body: { title, rank, featured: false, tags: ['a'], status: 'published' },
        })
      ).body.doc.id;
    const one = await make('Alpha', 1);
    await make('Beta', 2);
    await t.request('PATCH', `/posts/${one}?draft=true`, {
      token: editor.token,
      body: { title: 'Alpha revised', rank: 9, featured: true, tags: ['b'] },
    });
  });
  afterAll(() => t.stop());

  const titles = (res: { body: { docs: { title: string }[] } }) => res.body.docs.map((d) => d.title);

  test('a filter on a draft value finds the document, with its draft content', async () => {
    const res = await t.request('GET', '/posts?draft=true&where[title][equals]=Alpha revised', { token: editor.token });
    expect(res.body.totalDocs).toBe(1);
    expect(res.body.docs[0]).toMatchObject({
      title: 'Alpha revised',
      rank: 9,
      featured: true,
      tags: ['b'],
      status: 'draft',
    });
  });
  test('the live value no longer matches in a draft list', async () => {
    expect(
      (await t.request('GET', '/posts?draft=true&where[title][equals]=Alpha', { token: editor.token })).body.totalDocs,
    ).toBe(0);
  });
  test('checkbox, number and hasMany conditions run on draft values', async () => {
    expect(
      titles(await t.request('GET', '/posts?draft=true&where[featured][equals]=true', { token: editor.token })),
    ).toEqual(['Alpha revised']);
    expect(titles(await t.request('GET', '/posts?draft=true&where[rank][gt]=5', { token: editor.token }))).toEqual([
      'Alpha revised',
    ]);
    expect(titles(await t.request('GET', '/posts?draft=true&where[tags][equals]=b', { token: editor.token }))).toEqual([
      'Alpha revised',
    ]);
  });
  test('sorting uses draft values', async () => {
    expect(titles(await t.request('GET', '/posts?draft=true&sort=-rank', { token: editor.token }))).toEqual([
      'Alpha revised',
      'Beta',
    ]);
    expect(titles(await t.request('GET', '/posts?sort=-rank', { token: editor.token }))).toEqual(['Beta', 'Alpha']);
  });
  test('anonymous draft=true reads what is live', async () => {
    const res = await t.request('GET', '/posts?draft=true&where[title][equals]=Alpha');
    expect(res.body.totalDocs).toBe(1);
    expect(res.body.docs[0].title).toBe('Alpha');
  });
  test('after publishing, the live list matches the new values', async () => {
    const id = (await t.request('GET', '/posts?draft=true&where[title][equals]=Alpha revised', { token: editor.token }))
      .body.docs[0].id;
    await t.request('PATCH', `/posts/${id}`, { token: editor.token, body: { status: 'published' } });
    expect((await t.request('GET', '/posts?where[title][equals]=Alpha revised')).body.totalDocs).toBe(1);
  });
});

describe('unique values in drafts', () => {
  test('a draft may take another document’s unique value; publishing it may not', async () => {
    const t = await startTestServer({
      collections: [
        { slug: 'pages', drafts: true, fields: [{ name: 'slug', type: 'text', unique: true }] },
        { slug: 'strict', drafts: { validate: true }, fields: [{ name: 'slug', type: 'text', unique: true }] },
      ],
    });
    const editor = await t.user('editor');
    const write = (method: string, url: string, body: unknown) => t.request(method, url, { token: editor.token, body });
    const a = (await write('POST', '/pages', { slug: 'home', status: 'published' })).body.doc.id;
    const b = (await write('POST', '/pages', { slug: 'about', status: 'published' })).body.doc.id;
    expect((await write('PATCH', `/pages/${b}?draft=true`, { slug: 'home' })).status).toBe(200);
    const publish = await write('PATCH', `/pages/${b}`, { status: 'published' });
    expect(publish.status).toBe(400);
    expect(publish.body.errors[0].field).toBe('slug');
    expect((await write('PATCH', `/pages/${a}?draft=true`, { slug: 'home' })).status).toBe(200);
    expect((await write('PATCH', `/pages/${b}?draft=true`, { slug: 'about-us' })).status).toBe(200);
    // Drafts that validate meet the unique value at once.
    await write('POST', '/strict', { slug: 'home', status: 'published' });
    const other = (await write('POST', '/strict', { slug: 'other', status: 'published' })).body.doc.id;
    const clash = await write('PATCH', `/strict/${other}?draft=true`, { slug: 'home' });
    expect(clash.status).toBe(400);
    expect(clash.body.errors[0].field).toBe('slug');
    await t.stop();
  });
});
