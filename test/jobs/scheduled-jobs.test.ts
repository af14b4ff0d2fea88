/** Scheduled jobs across the site (docs/drafts-and-versions.md): `GET /jobs/scheduled`, admins only, soonest first, list shape. */
import { expect } from 'bun:test';
import { runScenarios, type TestServer } from '../harness.ts';
import { draftsConfig, JOBS_SECRET } from '../fixtures/drafts-config.ts';
import { localAPI } from '../../src/local.ts';

const HOUR = 3600_000;
const at = (t: TestServer, hours: number) => new Date(t.clock.now() + hours * HOUR).toISOString();
const jobsOf = (res: { body: any }) =>
  (res.body.docs as any[]).map((j) => [j.collection ?? j.global, j.parent, j.action]);
/** Filled in once the key exists (the table is built before the server starts). */
const editorKey: Record<string, string> = {};
const adminKey: Record<string, string> = {};

runScenarios(
  'scheduled jobs across the site',
  draftsConfig,
  [
    {
      name: 'admins list every pending job of every collection and global, soonest first, in the list shape',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled',
      status: 200,
      check: (res) => {
        expect(res.body).toMatchObject({
          totalDocs: 4,
          limit: 10,
          page: 1,
          totalPages: 1,
          hasNextPage: false,
          hasPrevPage: false,
          nextPage: null,
          prevPage: null,
        });
        expect(jobsOf(res)).toEqual([
          ['settings', null, 'publish'],
          ['posts', 2, 'publish'],
          ['notes', 1, 'unpublish'],
          ['posts', 1, 'unpublish'],
        ]);
        const job = res.body.docs[1];
        expect(Object.keys(job).sort()).toEqual(['action', 'at', 'collection', 'createdAt', 'id', 'parent', 'state']);
        expect(job.state).toBe('pending');
        expect(Object.keys(res.body.docs[0]).sort()).toEqual([
          'action',
          'at',
          'createdAt',
          'global',
          'id',
          'parent',
          'state',
        ]);
      },
    },
    {
      name: 'limit and page',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled?limit=1&page=2',
      status: 200,
      check: (res) => {
        expect(res.body).toMatchObject({
          totalDocs: 4,
          limit: 1,
          page: 2,
          totalPages: 4,
          hasNextPage: true,
          hasPrevPage: true,
          nextPage: 3,
          prevPage: 1,
        });
        expect(jobsOf(res)).toEqual([['posts', 2, 'publish']]);
      },
    },
    {
      name: 'limit 0 is a 400',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled?limit=0',
      status: 400,
      contains: ['"field":"limit"'],
    },
    {
      name: 'page 0 is a 400',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled?page=0',
      status: 400,
      contains: ['"field":"page"'],
    },
    {
      name: 'narrowed to one collection',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled?collection=posts',
      status: 200,
      check: (res) =>
        expect(jobsOf(res)).toEqual([
          ['posts', 2, 'publish'],
          ['posts', 1, 'unpublish'],
        ]),
    },
    {
      name: "narrowed to some documents of it (the list view's badges)",
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled?collection=posts&parent=1,3',
      status: 200,
      check: (res) => expect(jobsOf(res)).toEqual([['posts', 1, 'unpublish']]),
    },
    {
      name: 'narrowed to one global',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled?global=settings',
      status: 200,
      check: (res) => expect(jobsOf(res)).toEqual([['settings', null, 'publish']]),
    },
    {
      name: 'an unknown collection is a 400 naming it',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled?collection=nope',
      status: 400,
      contains: ['"field":"collection"'],
    },
    {
      name: 'an unknown global is a 400 naming it',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled?global=nope',
      status: 400,
      contains: ['"field":"global"'],
    },
    {
      name: 'parent without a collection is a 400',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled?parent=1',
      status: 400,
      contains: ['"field":"parent"'],
    },
    {
      name: 'a parent that is not an id is a 400',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled?collection=posts&parent=1,x',
      status: 400,
      contains: ['"field":"parent"'],
    },
    {
      name: 'without login it is a 401',
      method: 'GET',
      url: '/jobs/scheduled',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'an editor gets a 403 (the per-document …/schedule stays theirs)',
      as: 'editor',
      method: 'GET',
      url: '/jobs/scheduled',
      status: 403,
      contains: ['"errors"', 'Scheduled jobs across the site are for admins.'],
      events: { '*': 0 },
    },
    {
      name: "an editor's API key gets a 403",
      method: 'GET',
      url: '/jobs/scheduled',
      headers: editorKey,
      status: 403,
      contains: ['"errors"', 'Scheduled jobs across the site are for admins.'],
      events: { '*': 0 },
    },
    {
      name: "an admin's `*` API key may list them",
      method: 'GET',
      url: '/jobs/scheduled',
      headers: adminKey,
      status: 200,
      check: (res) => expect(res.body.totalDocs).toBe(4),
    },
    {
      name: 'the cron secret is not a login here',
      method: 'GET',
      url: '/jobs/scheduled',
      headers: { authorization: `Bearer ${JOBS_SECRET}` },
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: { '*': 0 },
    },
    {
      name: 'a write verb is a 405',
      as: 'admin',
      method: 'POST',
      url: '/jobs/scheduled',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
      events: { '*': 0 },
    },
    {
      name: '/jobs/run is still the runner',
      method: 'POST',
      url: '/jobs/run',
      headers: { authorization: `Bearer ${JOBS_SECRET}` },
      status: 200,
      events: { '*': 0 },
      contains: ['"jobs":{"ran":0'],
    },
    {
      name: 'cancelled and finished jobs leave the list',
      as: 'admin',
      method: 'GET',
      url: '/jobs/scheduled',
      status: 200,
      setup: async (t) => {
        const first = (await localAPI(t.cms).scheduledJobs({ collection: 'posts', parent: '2' })).docs[0];
        await localAPI(t.cms).cancelScheduled({ collection: 'posts', id: 2, job: first.id as number });
        t.clock.advance(1.5 * HOUR);
        await t.request('POST', '/jobs/run', { headers: { authorization: `Bearer ${JOBS_SECRET}` } });
      },
      check: (res) =>
        expect(jobsOf(res)).toEqual([
          ['notes', 1, 'unpublish'],
          ['posts', 1, 'unpublish'],
        ]),
    },
  ],
  {
    async seed(t) {
      const admin = await t.user('admin');
      const editor = await t.user('editor');
      const call = (method: string, url: string, body?: unknown) =>
        t.request(method, url, { token: admin.token, body });
      await call('POST', '/posts', { title: 'One' });
      await call('POST', '/posts', { title: 'Two' });
      await call('POST', '/notes', { text: 'Note' });
      await call('POST', '/posts/1/schedule', { action: 'unpublish', at: at(t, 5) });
      await call('POST', '/notes/1/schedule', { action: 'unpublish', at: at(t, 3) });
      await call('POST', '/posts/2/schedule', { action: 'publish', at: at(t, 2) });
      await call('POST', '/globals/settings/schedule', { action: 'publish', at: at(t, 1) });
      const key = async (user: number, scopes: string[]) =>
        (await call('POST', '/api-keys', { name: 'k', user, scopes })).body.doc.key;
      editorKey.authorization = `Bearer ${await key(editor.user.id as number, ['*'])}`;
      adminKey.authorization = `Bearer ${await key(admin.user.id as number, ['*'])}`;
    },
  },
);
