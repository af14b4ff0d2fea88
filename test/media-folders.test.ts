/**
 * Media folders (docs/media.md, "Folders"): `folders: true` on media adds the built-in `payload-folders`
 * collection and a `folder` relationship on media; folders nest, never into themselves or their own
 * sub-folders, must exist to be used, and are deleted only when empty; lists filter by folder.
 */
import { expect } from 'bun:test';
import { runScenarios } from './harness.ts';
import { form, png } from './support/media-fixtures.ts';
import type { UserConfig } from '../src/config/types.ts';

const config: UserConfig = { collections: [{ slug: 'media', folders: true, fields: [] }] };
const ids: Record<string, number> = {};
const remember = (name: string) => (res: { body: any }) => {
  ids[name] = res.body.doc.id;
};
const image = await png(20, 10);
/** Writes answer at depth 1, so the folder comes populated. */
const folderOf = (doc: any) => doc.folder?.id ?? doc.folder;

runScenarios('media folders', config, [
  {
    name: 'a top-level folder',
    as: 'editor',
    method: 'POST',
    url: '/payload-folders',
    body: { name: 'Photos' },
    status: 201,
    contains: ['"folder":null'],
    check: remember('photos'),
  },
  {
    name: 'a folder inside it',
    as: 'editor',
    method: 'POST',
    url: '/payload-folders',
    body: () => ({ name: 'Summer', folder: ids.photos }),
    status: 201,
    check: remember('summer'),
  },
  {
    name: 'a third level',
    as: 'editor',
    method: 'POST',
    url: '/payload-folders',
    body: () => ({ name: 'Beach', folder: ids.summer }),
    status: 201,
    check: remember('beach'),
  },
  {
    name: 'a folder needs a name',
    as: 'editor',
    method: 'POST',
    url: '/payload-folders',
    body: { folder: null },
    status: 400,
    contains: ['"field":"name"'],
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
    body: () => ({ folder: ids.beach }),
    status: 400,
    contains: ['"field":"folder"'],
  },
  {
    name: 'the refused move changed nothing',
    as: 'editor',
    method: 'GET',
    url: () => `/payload-folders/${ids.photos}`,
    status: 200,
    contains: ['"folder":null'],
  },
  {
    name: 'a sub-folder moves to the top level',
    as: 'editor',
    method: 'PATCH',
    url: () => `/payload-folders/${ids.beach}`,
    body: { folder: null },
    status: 200,
    contains: ['"folder":null'],
  },
  {
    name: 'and back under another folder',
    as: 'editor',
    method: 'PATCH',
    url: () => `/payload-folders/${ids.beach}`,
    body: () => ({ folder: ids.photos }),
    status: 200,
    check: (res) => expect(folderOf(res.body.doc)).toBe(ids.photos),
  },
  {
    name: 'an upload straight into a folder',
    as: 'editor',
    method: 'POST',
    url: '/media',
    body: () => form(image, 'sea.png', { folder: String(ids.summer) }),
    status: 201,
    check: (res) => {
      remember('sea')(res);
      expect(folderOf(res.body.doc)).toBe(ids.summer);
    },
  },
  {
    name: 'an upload at the top level',
    as: 'editor',
    method: 'POST',
    url: '/media',
    body: form(image, 'loose.png'),
    status: 201,
    contains: ['"folder":null'],
    check: remember('loose'),
  },
  {
    name: 'an upload into a missing folder is refused',
    as: 'editor',
    method: 'POST',
    url: '/media',
    body: form(image, 'lost.png', { folder: '999999' }),
    status: 400,
    contains: ['"field":"folder"'],
  },
  {
    name: 'a media document moves into a folder',
    as: 'editor',
    method: 'PATCH',
    url: () => `/media/${ids.loose}`,
    body: () => ({ folder: ids.photos }),
    status: 200,
    check: (res) => expect(folderOf(res.body.doc)).toBe(ids.photos),
  },
  {
    name: 'nor into a missing one',
    as: 'editor',
    method: 'PATCH',
    url: () => `/media/${ids.loose}`,
    body: { folder: 424242 },
    status: 400,
    contains: ['"field":"folder"'],
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
    contains: ['"totalDocs":0'],
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
  },
  {
    name: 'emptied, it is',
    as: 'editor',
    method: 'PATCH',
    url: () => `/media/${ids.sea}`,
    body: { folder: null },
    status: 200,
    contains: ['"folder":null'],
  },
  {
    name: 'the file is back at the top level',
    as: 'editor',
    method: 'GET',
    url: '/media?where[folder][exists]=false',
    status: 200,
    contains: ['"totalDocs":1', 'sea-'],
  },
  {
    name: 'and then deletes',
    as: 'editor',
    method: 'DELETE',
    url: () => `/payload-folders/${ids.summer}`,
    status: 200,
  },
  { name: 'anonymous visitors do not see folders', method: 'GET', url: '/payload-folders', status: 401 },
  {
    name: 'the admin config says media has folders',
    as: 'editor',
    method: 'GET',
    url: '/_admin/config',
    status: 200,
    check: (res) => expect(res.body.collections.find((c: any) => c.slug === 'media').folders).toBe(true),
  },
]);

runScenarios('without folders', {}, [
  { name: 'there is no folders collection', as: 'admin', method: 'GET', url: '/payload-folders', status: 404 },
  {
    name: 'media has no folder field',
    as: 'admin',
    method: 'POST',
    url: '/media',
    body: form(image, 'plain.png'),
    status: 201,
    notContains: ['"folder"'],
  },
]);
