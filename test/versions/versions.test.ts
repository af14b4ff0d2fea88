/** Versions (docs/drafts-and-versions.md): every save of a drafts collection or global keeps one; listed, read, restored, pruned; update access required. */
import { expect } from 'bun:test';
import { runScenarios, type TestServer } from '../harness.ts';
import { draftsConfig } from '../fixtures/drafts-config.ts';

const docsOf = (res: { body: any }) => res.body.docs as any[];
/** A request by the table's editor, for what a row needs before its own; it must answer 200. */
const asEditor = async (t: TestServer, method: string, url: string, body?: unknown) => {
  const res = await t.request(method, url, { token: (await t.session('editor')).token, body });
  if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res;
};
/** Restores the versions of `owner` (a document's or global's path) in the order given. */
const restore = async (t: TestServer, owner: string, ...versions: number[]) => {
  for (const v of versions) await asEditor(t, 'POST', `${owner}/versions/${v}/restore`);
};

runScenarios(
  'versions of documents',
  draftsConfig,
  [
    {
      name: 'versions are listed newest first in the list shape',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions',
      status: 200,
      check: (res) => {
        expect(res.body).toMatchObject({
          totalDocs: 3,
          limit: 10,
          page: 1,
          totalPages: 1,
          hasNextPage: false,
          hasPrevPage: false,
          nextPage: null,
          prevPage: null,
        });
        expect(docsOf(res).map((v) => [v.id, v.status, v.latest, v.version.title])).toEqual([
          [3, 'published', true, 'Two'],
          [2, 'draft', false, 'Two'],
          [1, 'published', false, 'One'],
        ]);
        const v = docsOf(res)[0];
        expect(Object.keys(v).sort()).toEqual([
          'createdAt',
          'id',
          'latest',
          'parent',
          'status',
          'updatedAt',
          'version',
        ]);
        expect(v.parent).toBe(1);
        expect(v.version).toMatchObject({ id: 1, title: 'Two', status: 'published' });
        expect(v.version.secret).toBeUndefined();
      },
    },
    {
      name: 'limit and page',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions?limit=1&page=2',
      status: 200,
      check: (res) => {
        expect(res.body).toMatchObject({
          totalDocs: 3,
          limit: 1,
          page: 2,
          totalPages: 3,
          hasNextPage: true,
          hasPrevPage: true,
          nextPage: 3,
          prevPage: 1,
        });
        expect(docsOf(res).map((v) => v.id)).toEqual([2]);
      },
    },
    {
      name: 'limit 0 is a 400',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions?limit=0',
      status: 400,
      contains: ['"field":"limit"'],
    },
    {
      name: 'limit 101 is a 400',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions?limit=101',
      status: 400,
      contains: ['"field":"limit"', '\\"limit\\" must be between 1 and 100.'],
      events: { '*': 0 },
    },
    {
      name: 'page 0 is a 400',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions?page=0',
      status: 400,
      contains: ['"field":"page"'],
    },
    {
      name: 'one version with its data',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions/1',
      status: 200,
      contains: ['"id":1', '"parent":1', '"status":"published"', '"latest":false', '"title":"One"'],
      notContains: ['"docs"'],
    },
    {
      name: 'a version of another document is a 404',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions/4',
      status: 404,
      contains: ['"errors"', 'Version not found.'],
      events: { '*': 0 },
    },
    {
      name: 'restoring a version of another document is a 404',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/versions/4/restore',
      status: 404,
      contains: ['"errors"', 'Version not found.'],
      events: {},
    },
    {
      name: 'a version id that is not a number is a 404',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions/abc',
      status: 404,
      contains: ['"errors"', 'Version not found.'],
      events: { '*': 0 },
    },
    {
      name: 'a missing version is a 404',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions/999',
      status: 404,
      contains: ['"errors"', 'Version not found.'],
      events: { '*': 0 },
    },
    {
      name: 'versions of a missing document are a 404',
      as: 'editor',
      method: 'GET',
      url: '/posts/999/versions',
      status: 404,
      contains: ['"errors"', 'Document not found.'],
      events: { '*': 0 },
    },
    {
      name: 'versions without login are a 401',
      method: 'GET',
      url: '/posts/1/versions',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'a version without login is a 401',
      method: 'GET',
      url: '/posts/1/versions/1',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'versions without update access are a 403',
      as: 'viewer',
      method: 'GET',
      url: '/posts/1/versions',
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'a version without update access is a 403',
      as: 'viewer',
      method: 'GET',
      url: '/posts/1/versions/1',
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'restore without login is a 401',
      method: 'POST',
      url: '/posts/1/versions/1/restore',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: {},
    },
    {
      name: 'restore without update access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/posts/1/versions/1/restore',
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: {},
    },
    {
      name: 'versions of a collection without drafts are a 400',
      as: 'editor',
      method: 'GET',
      url: '/pages/1/versions',
      status: 400,
      contains: ['"errors"', '\\"pages\\" does not have drafts enabled.'],
      events: { '*': 0 },
    },
    {
      name: 'restore answers 405 to GET',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions/1/restore',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
      events: { '*': 0 },
    },
    {
      name: 'restoring a published version makes it live, published',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/versions/1/restore',
      status: 200,
      contains: ['"doc":', '"message"', '"title":"One"', '"status":"published"'],
      events: { update: 1 },
    },
    {
      name: 'the restored version is live',
      setup: (t) => restore(t, '/posts/1', 1),
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"One"'],
    },
    {
      name: 'restoring kept a new version, now the latest',
      // The seed's three, then the restore's: 5, since the seed's version 4 is post 2's.
      setup: (t) => restore(t, '/posts/1', 1),
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions',
      status: 200,
      check: (res) => {
        expect(res.body.totalDocs).toBe(4);
        expect(docsOf(res).map((v) => [v.id, v.status, v.latest, v.version.title])).toEqual([
          [5, 'published', true, 'One'],
          [3, 'published', false, 'Two'],
          [2, 'draft', false, 'Two'],
          [1, 'published', false, 'One'],
        ]);
      },
    },
    {
      name: 'restoring a draft version makes it the pending draft',
      setup: (t) => restore(t, '/posts/1', 1),
      as: 'editor',
      method: 'POST',
      url: '/posts/1/versions/2/restore',
      status: 200,
      contains: ['"title":"Two"', '"status":"draft"'],
      events: { draft: 1 },
    },
    {
      name: 'the live document is unchanged by a draft restore',
      setup: (t) => restore(t, '/posts/1', 1, 2),
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"One"'],
    },
    {
      name: 'the restored draft is the pending draft',
      setup: (t) => restore(t, '/posts/1', 1, 2),
      as: 'editor',
      method: 'GET',
      url: '/posts/1?draft=true',
      status: 200,
      contains: ['"title":"Two"', '"status":"draft"'],
    },
    {
      name: 'restoring a published version over a pending draft publishes it',
      setup: (t) => restore(t, '/posts/1', 1, 2),
      as: 'editor',
      method: 'POST',
      url: '/posts/1/versions/1/restore',
      status: 200,
      contains: ['"title":"One"'],
      events: { update: 1, publish: 1 },
    },
    {
      name: 'the pending draft was taken over',
      setup: (t) => restore(t, '/posts/1', 1, 2, 1),
      as: 'editor',
      method: 'POST',
      url: '/posts/1/discard-draft',
      status: 404,
      contains: ['"errors"', 'There is no pending draft to discard.'],
      events: { '*': 0 },
    },
    {
      name: 'deleting a document deletes its versions',
      as: 'editor',
      method: 'DELETE',
      url: '/posts/2',
      status: 200,
      contains: ['"id":2', '"title":"Other"', 'Deleted successfully.'],
      events: { delete: 1 },
    },
    {
      name: 'no version of the deleted document is left',
      setup: async (t) => {
        await asEditor(t, 'DELETE', '/posts/2');
      },
      as: 'editor',
      method: 'GET',
      url: '/posts/2/versions',
      status: 404,
      contains: ['"errors"', 'Document not found.'],
      check: async (_res, t) => {
        const left = (await t.cms.store.get<{ n: number }>(
          `SELECT count(*) AS n FROM _cms_versions WHERE kind = 'collection' AND slug = 'posts' AND parent = 2`,
        ))!;
        expect(left.n).toBe(0);
      },
    },
  ],
  {
    async seed(t) {
      await t.user('editor', 'editor-v@example.com');
      const { token } = await t.login('editor-v@example.com', 'password123');
      const call = (method: string, url: string, body?: unknown) => t.request(method, url, { token, body });
      await call('POST', '/posts', { title: 'One', status: 'published', secret: 'hidden' }); // version 1
      await call('PATCH', '/posts/1?draft=true', { title: 'Two' }); // version 2 (pending draft)
      await call('PATCH', '/posts/1', { status: 'published' }); // version 3
      await call('POST', '/posts', { title: 'Other' }); // version 4, of post 2
      await call('POST', '/pages', { title: 'Page' });
    },
  },
);

runScenarios(
  'versions: maxVersions prunes the oldest, never the live or pending one',
  draftsConfig,
  [
    {
      name: 'five drafts over a published note keep three versions: the live one, the pending draft and the newest other',
      as: 'editor',
      method: 'GET',
      url: '/notes/1/versions',
      status: 200,
      check: (res) => {
        expect(res.body.totalDocs).toBe(3);
        expect(docsOf(res).map((v) => [v.status, v.version.text])).toEqual([
          ['draft', 'd5'],
          ['draft', 'd4'],
          ['published', 'live'],
        ]);
      },
    },
    {
      name: 'the pending draft is the newest draft',
      as: 'editor',
      method: 'GET',
      url: '/notes/1?draft=true',
      status: 200,
      contains: ['"text":"d5"'],
    },
    {
      name: 'publishing it',
      as: 'editor',
      method: 'PATCH',
      url: '/notes/1',
      body: { status: 'published' },
      status: 200,
      contains: ['"text":"d5"'],
      events: { update: 1, publish: 1 },
    },
    {
      name: 'still three versions, the newest live',
      setup: async (t) => {
        await asEditor(t, 'PATCH', '/notes/1', { status: 'published' });
      },
      as: 'editor',
      method: 'GET',
      url: '/notes/1/versions',
      status: 200,
      check: (res) => {
        expect(res.body.totalDocs).toBe(3);
        expect(docsOf(res)[0]).toMatchObject({ status: 'published', latest: true, version: { text: 'd5' } });
      },
    },
  ],
  {
    async seed(t) {
      const { token } = await t.session('editor');
      await t.request('POST', '/notes', { token, body: { text: 'live', status: 'published' } });
      for (let i = 1; i <= 5; i++) await t.request('PATCH', '/notes/1?draft=true', { token, body: { text: `d${i}` } });
    },
  },
);

let postVersion = 0;
runScenarios(
  'versions of globals',
  draftsConfig,
  [
    {
      name: 'global versions are listed newest first, parent null',
      as: 'editor',
      method: 'GET',
      url: '/globals/settings/versions',
      status: 200,
      check: (res) => {
        expect(res.body.totalDocs).toBe(2);
        expect(docsOf(res).map((v) => [v.status, v.parent, v.latest, v.version.siteName])).toEqual([
          ['draft', null, true, 'Draft'],
          ['published', null, false, 'Live'],
        ]);
      },
    },
    {
      name: 'global versions take where, sort, limit and page',
      as: 'editor',
      method: 'GET',
      url: '/globals/settings/versions?where[_status][equals]=published&sort=createdAt&limit=1&page=1',
      status: 200,
      check: (res) => {
        expect(res.body).toMatchObject({ totalDocs: 1, page: 1, totalPages: 1 });
        expect(docsOf(res).map((v) => v.version.siteName)).toEqual(['Live']);
      },
    },
    {
      name: 'global versions sorted oldest first, second page',
      as: 'editor',
      method: 'GET',
      url: '/globals/settings/versions?sort=createdAt&limit=1&page=2',
      status: 200,
      check: (res) => {
        expect(res.body).toMatchObject({ totalDocs: 2, page: 2, hasPrevPage: true, hasNextPage: false });
        expect(docsOf(res).map((v) => v.version.siteName)).toEqual(['Draft']);
      },
    },
    {
      name: 'global versions refuse an unknown sort field',
      as: 'editor',
      method: 'GET',
      url: '/globals/settings/versions?sort=nope',
      status: 400,
      contains: ['"field":"nope"', 'The field \\"nope\\" does not exist.'],
    },
    {
      name: 'one global version',
      as: 'editor',
      method: 'GET',
      url: '/globals/settings/versions/1',
      status: 200,
      contains: ['"siteName":"Live"', '"parent":null'],
    },
    {
      name: 'a collection document version is not a version of the global',
      as: 'editor',
      method: 'GET',
      url: () => `/globals/settings/versions/${postVersion}`,
      status: 404,
      contains: ['"errors"', 'Version not found.'],
      events: { '*': 0 },
    },
    {
      name: 'global versions without login are a 401',
      method: 'GET',
      url: '/globals/settings/versions',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'global versions without update access are a 403',
      as: 'viewer',
      method: 'GET',
      url: '/globals/settings/versions',
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'versions of a global without drafts are a 400',
      as: 'editor',
      method: 'GET',
      url: '/globals/footer/versions',
      status: 400,
      contains: ['"errors"', '\\"footer\\" does not have drafts enabled.'],
      events: { '*': 0 },
    },
    {
      name: 'restoring the draft version of a global',
      as: 'editor',
      method: 'POST',
      url: '/globals/settings/versions/2/restore',
      status: 200,
      contains: ['"siteName":"Draft"', '"status":"draft"'],
      events: { draft: 1 },
    },
    {
      name: 'restoring the published version publishes over the pending draft',
      setup: (t) => restore(t, '/globals/settings', 2),
      as: 'editor',
      method: 'POST',
      url: '/globals/settings/versions/1/restore',
      status: 200,
      contains: ['"siteName":"Live"', '"status":"published"'],
      events: { update: 1, publish: 1 },
    },
    {
      name: 'the global is live',
      setup: (t) => restore(t, '/globals/settings', 2, 1),
      method: 'GET',
      url: '/globals/settings',
      status: 200,
      contains: ['"siteName":"Live"'],
    },
  ],
  {
    async seed(t: TestServer) {
      const { token } = await t.session('editor');
      await t.request('POST', '/globals/settings', { token, body: { siteName: 'Live', status: 'published' } });
      await t.request('POST', '/globals/settings?draft=true', { token, body: { siteName: 'Draft' } });
      await t.request('POST', '/posts', { token, body: { title: 'A post' } });
      postVersion = 3;
    },
  },
);
