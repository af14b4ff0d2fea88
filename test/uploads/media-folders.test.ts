/**
 * Media folders (docs/media.md, "Folders"): `folders: true` on media adds the built-in `payload-folders`
 * collection and a `folder` relationship on media; folders nest, never into themselves or their own
 * sub-folders, must exist to be used, and are deleted only when empty; lists filter by folder.
 */
import { expect } from 'bun:test';
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import { form, png } from '../support/media-fixtures.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = { collections: [{ slug: 'media', folders: true, fields: [] }] };
const ids: Record<string, number> = {};
const image = await png(20, 10);
/** Writes answer at depth 1, so the folder comes populated. */
const folderOf = (doc: any) => doc.folder?.id ?? doc.folder;

let editorToken = '';
/** A write as an editor that must succeed; answers the document. */
async function write(t: TestServer, method: string, path: string, body: unknown) {
  const res = await t.request(method, path, { token: editorToken, body });
  expect(res.status).toBeLessThan(300);
  return res.body.doc;
}
/**
 * The tree every row starts from, made by the seed: Photos at the top holding Summer, Beach and loose.png,
 * and Summer holding sea.png. Rows that need another arrangement move things in their setup.
 */
async function makeTree(t: TestServer) {
  editorToken = (await t.user('editor')).token;
  ids.photos = (await write(t, 'POST', '/payload-folders', { name: 'Photos' })).id;
  ids.summer = (await write(t, 'POST', '/payload-folders', { name: 'Summer', folder: ids.photos })).id;
  ids.beach = (await write(t, 'POST', '/payload-folders', { name: 'Beach', folder: ids.photos })).id;
  ids.sea = (await write(t, 'POST', '/media', form(image, 'sea.png', { folder: String(ids.summer) }))).id;
  ids.loose = (await write(t, 'POST', '/media', form(image, 'loose.png', { folder: String(ids.photos) }))).id;
}

const rows: Scenario[] = [
  {
    name: 'a top-level folder',
    as: 'editor',
    method: 'POST',
    url: '/payload-folders',
    body: { name: 'Photos' },
    status: 201,
    events: { create: 1 },
    contains: ['"name":"Photos"', '"folder":null'],
    check: (res) => expect(res.body.doc.id).not.toBe(ids.photos),
  },
  {
    name: 'a folder inside it',
    as: 'editor',
    method: 'POST',
    url: '/payload-folders',
    body: () => ({ name: 'Summer', folder: ids.photos }),
    status: 201,
    events: { create: 1 },
    contains: ['"name":"Summer"'],
    check: (res) => expect(folderOf(res.body.doc)).toBe(ids.photos),
  },
  {
    name: 'a third level',
    as: 'editor',
    method: 'POST',
    url: '/payload-folders',
    body: () => ({ name: 'Beach', folder: ids.summer }),
    status: 201,
    events: { create: 1 },
    contains: ['"name":"Beach"'],
    check: (res) => expect(folderOf(res.body.doc)).toBe(ids.summer),
  },
  {
    name: 'a folder needs a name',
    as: 'editor',
    method: 'POST',
    url: '/payload-folders',
    body: { folder: null },
    status: 400,
    contains: ['"field":"name"', 'This field is required.'],
  },
  {
    name: 'a folder inside a missing folder is refused',
    as: 'editor',
    method: 'POST',
    url: '/payload-folders',
    body: { name: 'Lost', folder: 999999 },
    status: 400,
    contains: ['"field":"folder"', 'No payload-folders document'],
  },
  {
    name: 'a folder cannot sit in itself',
    as: 'editor',
    method: 'PATCH',
    url: () => `/payload-folders/${ids.photos}`,
    body: () => ({ folder: ids.photos }),
    status: 400,
    contains: ['"field":"folder"', 'into itself'],
  },
  {
    name: 'nor in its own grandchild',
    as: 'editor',
    method: 'PATCH',
    url: () => `/payload-folders/${ids.photos}`,
    // Beach sits under Summer, so it is Photos' grandchild.
    setup: async (t) => void (await write(t, 'PATCH', `/payload-folders/${ids.beach}`, { folder: ids.summer })),
    body: () => ({ folder: ids.beach }),
    status: 400,
    contains: ['"field":"folder"', 'into itself or into one of its own sub-folders'],
  },
  {
    name: 'the refused move changed nothing',
    as: 'editor',
    method: 'GET',
    url: () => `/payload-folders/${ids.photos}`,
    setup: async (t) => {
      const { token } = await t.session('editor');
      for (const folder of [ids.photos, ids.summer]) {
        const res = await t.request('PATCH', `/payload-folders/${ids.photos}`, { token, body: { folder } });
        expect(res.status).toBe(400);
      }
    },
    status: 200,
    contains: ['"name":"Photos"', '"folder":null'],
  },
  {
    name: 'a sub-folder moves to the top level',
    as: 'editor',
    method: 'PATCH',
    url: () => `/payload-folders/${ids.beach}`,
    body: { folder: null },
    status: 200,
    events: { update: 1 },
    contains: ['"folder":null'],
  },
  {
    name: 'and back under another folder',
    as: 'editor',
    method: 'PATCH',
    url: () => `/payload-folders/${ids.beach}`,
    // Moved to the top level first, as the row before does.
    setup: async (t) => void (await write(t, 'PATCH', `/payload-folders/${ids.beach}`, { folder: null })),
    body: () => ({ folder: ids.photos }),
    status: 200,
    events: { update: 1 },
    contains: ['"name":"Beach"'],
    check: (res) => expect(folderOf(res.body.doc)).toBe(ids.photos),
  },
  {
    name: 'an upload straight into a folder',
    as: 'editor',
    method: 'POST',
    url: '/media',
    body: () => form(image, 'sea.png', { folder: String(ids.summer) }),
    status: 201,
    events: { create: 1 },
    contains: ['"originalName":"sea.png"'],
    check: (res) => expect(folderOf(res.body.doc)).toBe(ids.summer),
  },
  {
    name: 'an upload at the top level',
    as: 'editor',
    method: 'POST',
    url: '/media',
    body: form(image, 'loose.png'),
    status: 201,
    events: { create: 1 },
    contains: ['"originalName":"loose.png"', '"folder":null'],
  },
  {
    name: 'an upload into a missing folder is refused',
    as: 'editor',
    method: 'POST',
    url: '/media',
    body: form(image, 'lost.png', { folder: '999999' }),
    status: 400,
    contains: ['"field":"folder"', 'No payload-folders document with id 999999.'],
  },
  {
    name: 'a media document moves into a folder',
    as: 'editor',
    method: 'PATCH',
    url: () => `/media/${ids.loose}`,
    // loose.png starts at the top level here, as it was uploaded.
    setup: async (t) => void (await write(t, 'PATCH', `/media/${ids.loose}`, { folder: null })),
    body: () => ({ folder: ids.photos }),
    status: 200,
    events: { update: 1 },
    contains: ['"originalName":"loose.png"'],
    check: (res) => expect(folderOf(res.body.doc)).toBe(ids.photos),
  },
  {
    name: 'nor into a missing one',
    as: 'editor',
    method: 'PATCH',
    url: () => `/media/${ids.loose}`,
    body: { folder: 424242 },
    status: 400,
    contains: ['"field":"folder"', 'No payload-folders document with id 424242.'],
  },
  {
    name: 'a folder lists its documents',
    as: 'editor',
    method: 'GET',
    url: () => `/media?where[folder][equals]=${ids.photos}`,
    status: 200,
    contains: ['"totalDocs":1', 'loose-'],
  },
  {
    name: 'the top level lists documents in no folder',
    as: 'editor',
    method: 'GET',
    url: '/media?where[folder][exists]=false',
    status: 200,
    // Both of the tree's files are in folders.
    contains: ['"docs":[]', '"totalDocs":0'],
  },
  {
    name: 'a folder lists its sub-folders',
    as: 'editor',
    method: 'GET',
    url: () => `/payload-folders?where[folder][equals]=${ids.photos}&sort=name`,
    status: 200,
    contains: ['"totalDocs":2', 'Beach', 'Summer'],
  },
  {
    name: 'the parent is populated with depth',
    as: 'editor',
    method: 'GET',
    url: () => `/media/${ids.sea}?depth=2`,
    status: 200,
    contains: ['"name":"Summer"', '"name":"Photos"'],
  },
  {
    name: 'a folder holding documents is not deleted',
    as: 'editor',
    method: 'DELETE',
    url: () => `/payload-folders/${ids.summer}`,
    status: 409,
    contains: ['not empty'],
  },
  {
    name: 'a folder holding sub-folders is not deleted',
    as: 'editor',
    method: 'DELETE',
    url: () => `/payload-folders/${ids.photos}`,
    status: 409,
    contains: ['not empty'],
  },
  {
    name: 'emptied, it is',
    as: 'editor',
    method: 'PATCH',
    url: () => `/media/${ids.sea}`,
    body: { folder: null },
    status: 200,
    events: { update: 1 },
    contains: ['"originalName":"sea.png"', '"folder":null'],
  },
  {
    name: 'the file is back at the top level',
    as: 'editor',
    method: 'GET',
    url: '/media?where[folder][exists]=false',
    setup: async (t) => void (await write(t, 'PATCH', `/media/${ids.sea}`, { folder: null })),
    status: 200,
    contains: ['"totalDocs":1', 'sea-'],
    check: (res) => expect(res.body.docs.map((d: any) => [d.id, d.folder])).toEqual([[ids.sea, null]]),
  },
  {
    name: 'and then deletes',
    as: 'editor',
    method: 'DELETE',
    url: () => `/payload-folders/${ids.summer}`,
    setup: async (t) => void (await write(t, 'PATCH', `/media/${ids.sea}`, { folder: null })),
    status: 200,
    events: { delete: 1 },
    contains: ['"name":"Summer"', 'Deleted successfully.'],
    check: async (_res, t) => {
      const { token } = await t.session('editor');
      expect((await t.request('GET', `/payload-folders/${ids.summer}`, { token })).status).toBe(404);
    },
  },
  {
    name: 'anonymous visitors do not see folders',
    method: 'GET',
    url: '/payload-folders',
    status: 401,
    contains: ['"errors"', 'You must be logged in'],
  },
  {
    name: 'the admin config says media has folders',
    as: 'editor',
    method: 'GET',
    url: '/_admin/config',
    status: 200,
    check: (res) => expect(res.body.collections.find((c: any) => c.slug === 'media').folders).toBe(true),
  },
];

runScenarios('media folders', config, rows, { seed: makeTree });

runScenarios(
  'without folders',
  {},
  [
    {
      name: 'there is no folders collection',
      as: 'admin',
      method: 'GET',
      url: '/payload-folders',
      status: 404,
      contains: ['"errors"', 'Collection \\"payload-folders\\" not found.'],
    },
    {
      name: 'media has no folder field',
      as: 'admin',
      method: 'POST',
      url: '/media',
      body: form(image, 'plain.png'),
      status: 201,
      events: { create: 1 },
      contains: ['"originalName":"plain.png"'],
      notContains: ['"folder"'],
    },
  ],
  {},
);
