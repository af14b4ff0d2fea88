/** Version authorship (docs/drafts-and-versions.md): who saved each version, as `author` on version records. */
import { expect } from 'bun:test';
import { runScenarios, type Session } from '../harness.ts';
import { draftsConfig } from '../fixtures/drafts-config.ts';
import { localAPI } from '../../src/local.ts';

const docsOf = (res: { body: any }) => res.body.docs as any[];
let editor: Session;
/** Filled in once the key exists (the table is built before the server starts). */
const keyHeaders: Record<string, string> = {};

runScenarios(
  'version authors',
  draftsConfig,
  [
    {
      name: 'a reader allowed to read users gets each author as { id, email, name }; system saves as null',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions?author=true',
      status: 200,
      check: (res) => {
        const id = editor.user.id;
        expect(docsOf(res).map((v) => v.author)).toEqual([
          null, // the scheduled publish (the job runner acts as the system)
          null, // the Local API without a user
          { id, email: 'author@example.com', name: 'Ada Author' },
          { id, email: 'author@example.com', name: 'Ada Author' },
        ]);
      },
    },
    {
      name: "Payload's collection versions path carries the author and filters by it",
      as: 'editor',
      method: 'GET',
      url: () => `/posts/versions?author=true&where[author][equals]=${editor.user.id}`,
      status: 200,
      check: (res) => {
        expect(res.body.totalDocs).toBe(2);
        expect(docsOf(res).every((v) => v.author?.email === 'author@example.com')).toBe(true);
      },
    },
    {
      name: 'without ?author=true a version record keeps exactly the documented shape',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions/1',
      status: 200,
      check: (res) => {
        expect(Object.keys(res.body).sort()).toEqual([
          'createdAt',
          'id',
          'latest',
          'parent',
          'status',
          'updatedAt',
          'version',
        ]);
      },
    },
    {
      name: 'one version carries its author',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/versions/1?author=true',
      status: 200,
      contains: ['"author":{"id":', '"email":"author@example.com"', '"name":"Ada Author"'],
    },
    {
      name: 'an API key that may not read users sees the author as the bare id',
      method: 'GET',
      url: '/posts/1/versions/1?author=true',
      status: 200,
      headers: keyHeaders,
      check: (res) => expect(res.body.author).toBe(editor.user.id),
    },
    {
      name: 'global versions carry the author too',
      as: 'editor',
      method: 'GET',
      url: '/globals/settings/versions?author=true',
      status: 200,
      check: (res) => expect(docsOf(res)[0].author).toMatchObject({ id: editor.user.id, email: 'author@example.com' }),
    },
  ],
  {
    async seed(t) {
      editor = await t.user('editor', 'author@example.com');
      const admin = await t.user('admin');
      await t.request('PATCH', `/users/${editor.user.id}`, { token: admin.token, body: { name: 'Ada Author' } });
      const key = (
        await t.request('POST', '/api-keys', {
          token: admin.token,
          body: { name: 'posts only', user: editor.user.id, scopes: ['posts:read', 'posts:update'] },
        })
      ).body.doc.key;
      keyHeaders.authorization = `Bearer ${key}`;
      const call = (method: string, url: string, body?: unknown) =>
        t.request(method, url, { token: editor.token, body });
      await call('POST', '/posts', { title: 'One', status: 'published' }); // version 1: the editor
      await call('PATCH', '/posts/1?draft=true', { title: 'Two' }); // version 2: the editor's pending draft
      await localAPI(t.cms).update({ collection: 'posts', id: 1, data: { body: 'by the system' }, draft: true }); // version 3: no user
      await call('POST', '/posts/1/schedule', {
        action: 'publish',
        at: new Date(t.clock.now() + 60_000).toISOString(),
      });
      t.clock.advance(120_000);
      await t.request('POST', '/jobs/run', { headers: { authorization: 'Bearer cron-secret-for-tests' } }); // version 4: the job runner
      await call('POST', '/globals/settings', { siteName: 'Site' });
    },
  },
);
