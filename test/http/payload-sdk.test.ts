/**
 * The official `@payloadcms/sdk` client, unchanged, against a real server on a random port (docs/payload-compatibility.md):
 * every method it has that this API serves, with the results asserted, not only the status.
 * `@payloadcms/live-preview`'s `mergeData` is driven the same way (its default request: POST with the
 * method-override header).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { PayloadSDK } from '@payloadcms/sdk';
import { mergeData } from '@payloadcms/live-preview';
import { startTestServer, type TestServer } from '../harness.ts';
import { png } from '../support/media-fixtures.ts';

let t: TestServer;
let sdk: PayloadSDK<any>;
let auth: RequestInit;
const ADMIN = { email: 'sdk-admin@example.com', password: 'password123' };

beforeAll(async () => {
  t = await startTestServer({
    collections: [
      {
        slug: 'posts',
        drafts: true,
        fields: [
          { name: 'title', type: 'text', required: true },
          { name: 'views', type: 'number' },
          { name: 'author', type: 'relationship', relationTo: 'users' },
          { name: 'secret', type: 'text', hidden: true },
        ],
      },
    ],
    globals: [{ slug: 'settings', drafts: true, fields: [{ name: 'siteName', type: 'text' }] }],
    upload: { imageSizes: [{ name: 'thumb', width: 8 }] },
  });
  await t.user('admin', ADMIN.email, ADMIN.password);
  sdk = new PayloadSDK({ baseURL: t.api });
});

afterAll(async () => {
  await t?.stop();
});

describe('@payloadcms/sdk against the API', () => {
  test('login, me and refreshToken', async () => {
    const login = await sdk.login({ collection: 'users', data: ADMIN });
    expect(login.user.email).toBe(ADMIN.email);
    expect(typeof login.token).toBe('string');
    // Payload's header form, as its frontends send it.
    auth = { headers: { Authorization: `JWT ${login.token}` } };
    const me = await sdk.me({ collection: 'users' }, auth);
    expect(me.user?.email).toBe(ADMIN.email);
    // Payload's clients also read the token, its end and the collection.
    expect(me).toMatchObject({
      token: login.token,
      exp: login.exp,
      collection: 'users',
      csrfToken: expect.any(String),
    });
    t.clock.advance(60_000);
    const refreshed = await sdk.refreshToken({ collection: 'users' }, auth);
    expect(refreshed.refreshedToken).toBe(login.token!);
    expect(refreshed.exp).toBeGreaterThan(login.exp!);
    expect((refreshed.user as { email: string }).email).toBe(ADMIN.email);
  });

  test('create, findByID, find with where/sort/limit/page/depth/select/populate, count', async () => {
    const adminId = (await sdk.me({ collection: 'users' }, auth)).user!.id;
    const first = await sdk.create(
      { collection: 'posts', data: { title: 'Alpha', views: 1, author: adminId, _status: 'published' } },
      auth,
    );
    expect(first._status).toBe('published');
    expect(first.status).toBe('published');
    for (const [title, views] of [
      ['Beta', 2],
      ['Gamma', 3],
    ] as const)
      await sdk.create({ collection: 'posts', data: { title, views, author: adminId } }, auth);

    const one = await sdk.findByID({ collection: 'posts', id: first.id, depth: 0 }, auth);
    expect(one).toMatchObject({ id: first.id, title: 'Alpha', author: adminId, _status: 'published' });

    const page = await sdk.find(
      { collection: 'posts', where: { views: { greater_than: 1 } }, sort: 'views', limit: 1, page: 2, depth: 1 },
      auth,
    );
    expect(page.totalDocs).toBe(2);
    expect(page.docs.map((d: any) => d.title)).toEqual(['Gamma']);
    expect((page.docs[0] as any).author.email).toBe(ADMIN.email);

    const shaped = await sdk.find(
      {
        collection: 'posts',
        where: { title: { equals: 'Alpha' } },
        select: { title: true, author: true },
        populate: { users: { email: true } },
      },
      auth,
    );
    expect(shaped.docs[0]).toEqual({ id: first.id, title: 'Alpha', author: { id: adminId, email: ADMIN.email } });

    const drafts = await sdk.find(
      { collection: 'posts', where: { _status: { equals: 'draft' } }, sort: '-_status' },
      auth,
    );
    expect(drafts.docs.map((d: any) => d.title).sort()).toEqual(['Beta', 'Gamma']);

    const whole = await sdk.find({ collection: 'posts', pagination: false }, auth);
    expect(whole.docs).toHaveLength(3);
    expect(whole.totalPages).toBe(1);

    expect(await sdk.count({ collection: 'posts', where: { views: { less_than_equal: 2 } } }, auth)).toEqual({
      totalDocs: 2,
    });
    // Anonymous readers fall under the default rule (logged-in users only): the SDK surfaces the 401.
    await expect(sdk.count({ collection: 'posts' })).rejects.toMatchObject({ status: 401 });
  });

  test('update by id and by where; delete by where', async () => {
    const { docs } = await sdk.find({ collection: 'posts', where: { title: { equals: 'Alpha' } } }, auth);
    const updated = await sdk.update({ collection: 'posts', id: docs[0].id, data: { views: 10 } }, auth);
    expect(updated.views).toBe(10);

    const bulk = await sdk.update(
      { collection: 'posts', where: { title: { in: ['Beta', 'Gamma'] } }, data: { views: 7 } },
      auth,
    );
    expect(bulk.docs.map((d: any) => [d.title, d.views]).sort()).toEqual([
      ['Beta', 7],
      ['Gamma', 7],
    ]);
    expect(bulk.errors).toEqual([]);

    const before = t.events.length;
    const removed = await sdk.delete({ collection: 'posts', where: { views: { equals: 7 } } }, auth);
    expect(removed.docs.map((d: any) => d.title).sort()).toEqual(['Beta', 'Gamma']);
    expect(t.events.slice(before).filter((e) => e.type === 'delete')).toHaveLength(2);
    expect((await sdk.count({ collection: 'posts' }, auth)).totalDocs).toBe(1);
  });

  test('findVersions, findVersionByID, restoreVersion', async () => {
    const { docs } = await sdk.find({ collection: 'posts', where: { title: { equals: 'Alpha' } } }, auth);
    const id = docs[0].id;
    await sdk.update({ collection: 'posts', id, data: { title: 'Alpha 2', _status: 'published' } }, auth);
    const versions = await sdk.findVersions({ collection: 'posts', where: { parent: { equals: id } } }, auth);
    expect(versions.docs.length).toBeGreaterThanOrEqual(2);
    expect((versions.docs[0] as any).version.title).toBe('Alpha 2');
    const oldest = versions.docs[versions.docs.length - 1] as any;
    expect(oldest.version.title).toBe('Alpha');

    const read = await sdk.findVersionByID({ collection: 'posts', id: oldest.id }, auth);
    expect((read as any).version.title).toBe('Alpha');
    expect((read as any).parent).toBe(id);

    const restored = await sdk.restoreVersion({ collection: 'posts', id: oldest.id }, auth);
    expect((restored as any).doc.title).toBe('Alpha');
    expect((await sdk.findByID({ collection: 'posts', id }, auth)).title).toBe('Alpha');
  });

  test('findGlobal, updateGlobal (returns the document), global versions and restore', async () => {
    const empty = await sdk.findGlobal({ slug: 'settings' }, auth);
    expect(empty.siteName).toBeNull();
    const saved = await sdk.updateGlobal({ slug: 'settings', data: { siteName: 'One', _status: 'published' } }, auth);
    expect(saved).toMatchObject({ siteName: 'One', _status: 'published' });
    await sdk.updateGlobal({ slug: 'settings', data: { siteName: 'Two', _status: 'published' } }, auth);
    expect((await sdk.findGlobal({ slug: 'settings' }, auth)).siteName).toBe('Two');

    const versions = await sdk.findGlobalVersions({ slug: 'settings' }, auth);
    const first = versions.docs.find((v: any) => v.version.siteName === 'One') as any;
    expect(first).toBeDefined();
    const read = await sdk.findGlobalVersionByID({ slug: 'settings', id: first.id }, auth);
    expect((read as any).version.siteName).toBe('One');
    const restored = await sdk.restoreGlobalVersion({ slug: 'settings', id: first.id }, auth);
    expect(restored).toMatchObject({ siteName: 'One' });
    expect((await sdk.findGlobal({ slug: 'settings' }, auth)).siteName).toBe('One');
  });

  test('upload through create with a file', async () => {
    const bytes = await png(20, 10);
    const file = new File([bytes], 'pixel.png', { type: 'image/png' });
    const doc = await sdk.create({ collection: 'media', data: { alt: 'A pixel' }, file }, auth);
    expect(doc).toMatchObject({ alt: 'A pixel', mimeType: 'image/png', width: 20, height: 10 });
    expect((await sdk.find({ collection: 'media', where: { alt: { equals: 'A pixel' } } }, auth)).totalDocs).toBe(1);
  });

  test('update with a file replaces it, remakes the sizes and removes the old files after the save', async () => {
    const first = await sdk.create(
      {
        collection: 'media',
        data: { alt: 'Before' },
        file: new File([await png(20, 10)], 'before.png', { type: 'image/png' }),
      },
      auth,
    );
    const oldFiles = [first.filename, (first.sizes as any).thumb.filename];
    const fileStatus = async (name: string) => (await fetch(`${t.api}/media/file/${name}`)).status;
    const updated = await sdk.update(
      {
        collection: 'media',
        id: first.id,
        data: { alt: 'After' },
        file: new File([await png(40, 30)], 'after.png', { type: 'image/png' }),
      },
      auth,
    );
    expect(updated).toMatchObject({
      id: first.id,
      alt: 'After',
      width: 40,
      height: 30,
      originalName: 'after.png',
      mimeType: 'image/png',
    });
    expect((updated.sizes as any).thumb).toMatchObject({ width: 8, height: 6 });
    expect(updated.filename).not.toBe(first.filename);
    for (const name of oldFiles) expect(await fileStatus(name)).toBe(404);
    for (const name of [updated.filename, (updated.sizes as any).thumb.filename])
      expect(await fileStatus(name as string)).toBe(200);
    expect((await sdk.findByID({ collection: 'media', id: first.id }, auth)).width).toBe(40);

    // A refused replacement (an empty file) changes nothing and keeps the current files.
    const refused = await fetch(`${t.api}/media/${first.id}`, {
      method: 'PATCH',
      headers: auth.headers,
      body: (() => {
        const f = new FormData();
        f.append('file', new File([], 'empty.png', { type: 'image/png' }));
        return f;
      })(),
    });
    expect(refused.status).toBe(400);
    expect(await fileStatus(updated.filename as string)).toBe(200);
    expect((await sdk.findByID({ collection: 'media', id: first.id }, auth)).filename).toBe(updated.filename);
  });

  test('the API-Key header form authenticates like Bearer', async () => {
    const key = await sdk.create({ collection: 'api-keys', data: { name: 'sdk', user: 1, scopes: ['*'] } }, auth);
    const me = await sdk.me(
      { collection: 'users' },
      { headers: { Authorization: `users API-Key ${(key as any).key}` } },
    );
    expect(me.user?.email).toBe(ADMIN.email);
    // A key is never echoed back, and has no session end.
    expect(me).toMatchObject({ token: null, exp: null, collection: 'users' });
  });
});

describe('@payloadcms/live-preview mergeData', () => {
  test('returns the unsaved values merged over the document, populated to depth, and saves nothing', async () => {
    const adminId = (await sdk.me({ collection: 'users' }, auth)).user!.id;
    const post = await sdk.create(
      { collection: 'posts', data: { title: 'Saved', views: 1, _status: 'published' } },
      auth,
    );
    const before = t.events.length;
    const merged = (await mergeData({
      serverURL: t.url,
      apiRoute: t.cms.config.routes.api,
      collectionSlug: 'posts',
      depth: 1,
      initialData: post,
      incomingData: { title: 'Unsaved', author: adminId },
      // The default handler sends cookies; here the session goes as Payload's JWT header instead.
      requestHandler: ({
        apiPath,
        data,
        endpoint,
        serverURL,
      }: {
        apiPath: string;
        data: unknown;
        endpoint: string;
        serverURL: string;
      }) =>
        fetch(`${serverURL}${apiPath}/${endpoint}`, {
          method: 'POST',
          body: JSON.stringify(data),
          headers: {
            'Content-Type': 'application/json',
            'X-Payload-HTTP-Method-Override': 'GET',
            ...(auth.headers as Record<string, string>),
          },
        }),
    } as any)) as any;
    expect(merged).toMatchObject({ id: post.id, title: 'Unsaved', views: 1 });
    expect(merged.author.email).toBe(ADMIN.email);
    expect(t.events.length).toBe(before);
    expect((await sdk.findByID({ collection: 'posts', id: post.id }, auth)).title).toBe('Saved');
  });
});
