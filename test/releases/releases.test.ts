/**
 * Releases over REST (docs/releases.md): the record, items with pinned versions, access and key scopes,
 * and the all-or-nothing publish with each document's events, one `release` webhook delivery per target
 * and one `release.publish` audit entry.
 */
import { expect } from 'bun:test';
import { runScenarios, type TestServer } from '../harness.ts';
import { runJobs } from '../../src/jobs/run-jobs.ts';
import { PUBLISH_HOOK, RELEASE_HOOK, releasesConfig } from '../fixtures/releases-config.ts';

const as = async (t: TestServer, role: string) => (await t.session(role)).token;
async function ok(t: TestServer, role: string, method: string, url: string, body?: unknown) {
  const res = await t.request(method, url, { token: await as(t, role), body });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res.body;
}
/** An API key of the editor with these scopes. */
async function editorKey(t: TestServer, scopes: string[]): Promise<string> {
  const editor = await t.session('editor');
  const res = await ok(t, 'admin', 'POST', '/api-keys', { name: 'k', user: editor.user.id, scopes });
  return res.doc.key;
}
const keys: Record<string, string> = {};
const made: Record<string, number> = {};

/** Post 1 gets a second draft after release 1 pinned its first. */
const newerDraft = (t: TestServer) => ok(t, 'editor', 'PATCH', '/posts/1?draft=true', { title: 'Draft one, later' });
const liveTitles = async (t: TestServer) =>
  (await t.request('GET', '/posts?sort=id')).body.docs.map((d: any) => `${d.id}:${d.title}`);
const deliveries = (t: TestServer, url: string) =>
  t.cms.store.all<{ event: string; body: string }>('SELECT * FROM "webhook-deliveries" WHERE "url" = ?', [url]);

runScenarios(
  'releases: records and items',
  releasesConfig,
  [
    {
      name: 'an editor creates an open release',
      as: 'editor',
      method: 'POST',
      url: '/releases',
      body: { title: 'Spring', description: 'Prices' },
      status: 201,
      contains: ['"title":"Spring"', '"description":"Prices"', '"status":"open"', '"items":[]', '"publishAt":null'],
      events: { '*': 0 },
    },
    {
      name: 'a release needs a title',
      as: 'editor',
      method: 'POST',
      url: '/releases',
      body: { description: 'x' },
      status: 400,
      contains: ['"field":"title"'],
    },
    {
      name: 'an anonymous caller cannot create a release',
      method: 'POST',
      url: '/releases',
      body: { title: 'x' },
      status: 401,
      contains: ['"errors"'],
    },
    {
      name: 'a user who may update no drafts collection cannot create a release',
      as: 'viewer',
      method: 'POST',
      url: '/releases',
      body: { title: 'x' },
      status: 403,
      contains: ['"errors"'],
    },
    {
      name: 'an API key without releases:write cannot create a release',
      setup: async (t) => {
        keys.posts = await editorKey(t, ['posts:update', 'posts:read']);
      },
      method: 'POST',
      url: '/releases',
      headers: {
        get authorization() {
          return `Bearer ${keys.posts}`;
        },
      },
      body: { title: 'x' },
      status: 403,
      contains: ['releases:write'],
    },
    {
      name: 'an API key with releases:write creates a release',
      setup: async (t) => {
        keys.write = await editorKey(t, ['releases:write', 'posts:update']);
      },
      method: 'POST',
      url: '/releases',
      headers: {
        get authorization() {
          return `Bearer ${keys.write}`;
        },
      },
      body: { title: 'By key' },
      status: 201,
      events: { '*': 0 },
      contains: ['"title":"By key"'],
    },
    {
      name: 'the list has the list shape, newest first, filtered by where',
      setup: (t) => ok(t, 'editor', 'POST', '/releases', { title: 'Second' }).then(() => {}),
      as: 'editor',
      method: 'GET',
      url: '/releases?where[status][equals]=open',
      status: 200,
      contains: ['"totalDocs":2', '"page":1'],
      check: (res) => expect(res.body.docs.map((d: any) => d.title)).toEqual(['Second', 'Launch']),
    },
    {
      name: 'a release shows its items with pinned versions and titles',
      as: 'editor',
      method: 'GET',
      url: '/releases/1',
      status: 200,
      contains: ['"collection":"posts"', '"document":1', '"global":"settings"', '"action":"publish"'],
      check: (res) => {
        const [post, settings] = res.body.items;
        expect(post).toMatchObject({ title: 'Draft one', changedSinceAdded: false });
        expect(typeof post.version).toBe('number');
        expect(settings).toMatchObject({ title: 'settings', changedSinceAdded: false });
      },
    },
    {
      name: 'a newer draft marks the item changed since added',
      setup: newerDraft,
      as: 'editor',
      method: 'GET',
      url: '/releases/1',
      status: 200,
      contains: ['"changedSinceAdded":true'],
    },
    {
      name: 'adding the same document again replaces its item and pins anew',
      setup: newerDraft,
      as: 'editor',
      method: 'POST',
      url: '/releases/1/items',
      body: { collection: 'posts', id: 1, action: 'publish' },
      status: 200,
      events: { '*': 0 },
      contains: ['"title":"Draft one, later"'],
      notContains: ['"changedSinceAdded":true'],
      check: (res) => expect(res.body.doc.items).toHaveLength(2),
    },
    {
      name: 'an item may pin a version given by id',
      setup: async (t) => {
        const versions = await ok(t, 'editor', 'GET', '/posts/2/versions');
        made.version = versions.docs[0].id;
      },
      as: 'editor',
      method: 'POST',
      url: '/releases/1/items',
      body: () => ({ collection: 'posts', id: 2, action: 'unpublish', version: made.version }),
      status: 200,
      events: { '*': 0 },
      contains: ['"action":"unpublish"', '"title":"Live two"'],
    },
    {
      name: 'a collection without drafts cannot be added',
      as: 'editor',
      method: 'POST',
      url: '/releases/1/items',
      body: { collection: 'pages', id: 1, action: 'publish' },
      status: 400,
      contains: ['drafts'],
    },
    {
      name: 'an unknown document cannot be added',
      as: 'editor',
      method: 'POST',
      url: '/releases/1/items',
      body: { collection: 'posts', id: 99, action: 'publish' },
      status: 404,
      contains: ['"errors"'],
    },
    {
      name: 'an item needs an action',
      as: 'editor',
      method: 'POST',
      url: '/releases/1/items',
      body: { collection: 'posts', id: 1, action: 'delete' },
      status: 400,
      contains: ['"field":"action"'],
    },
    {
      name: 'another editor cannot change the release',
      as: 'editor2',
      method: 'POST',
      url: '/releases/1/items',
      body: { collection: 'posts', id: 2, action: 'publish' },
      status: 403,
      contains: ['author'],
    },
    {
      name: 'an admin may change any release',
      as: 'admin',
      method: 'PATCH',
      url: '/releases/1',
      body: { title: 'Launch!' },
      status: 200,
      events: { '*': 0 },
      contains: ['"title":"Launch!"'],
    },
    {
      name: 'an item is removed',
      setup: async (t) => {
        made.item = (await ok(t, 'editor', 'GET', '/releases/1')).items[1].id;
      },
      as: 'editor',
      method: 'DELETE',
      url: () => `/releases/1/items/${made.item}`,
      status: 200,
      events: { '*': 0 },
      contains: ['"collection":"posts"'],
      notContains: ['"global":"settings"'],
    },
    {
      name: 'a published release cannot be changed',
      setup: (t) => ok(t, 'editor', 'POST', '/releases/1/publish').then(() => {}),
      as: 'editor',
      method: 'PATCH',
      url: '/releases/1',
      body: { title: 'Again' },
      status: 409,
      contains: ['"errors"'],
    },
    {
      name: 'a published release cannot be deleted',
      setup: (t) => ok(t, 'editor', 'POST', '/releases/1/publish').then(() => {}),
      as: 'editor',
      method: 'DELETE',
      url: '/releases/1',
      status: 409,
      contains: ['"errors"'],
    },
    {
      name: 'items of a published release cannot change',
      setup: (t) => ok(t, 'editor', 'POST', '/releases/1/publish').then(() => {}),
      as: 'editor',
      method: 'POST',
      url: '/releases/1/items',
      body: { collection: 'posts', id: 2, action: 'publish' },
      status: 409,
      contains: ['open'],
    },
    {
      name: 'an open release is deleted',
      as: 'editor',
      method: 'DELETE',
      url: '/releases/1',
      status: 200,
      events: { '*': 0 },
      contains: ['"title":"Launch"'],
      check: async (_res, t) =>
        expect((await t.request('GET', '/releases/1', { token: await as(t, 'editor') })).status).toBe(404),
    },
  ],
  { seed },
);

runScenarios(
  'releases: publishing',
  releasesConfig,
  [
    {
      name: 'publishing makes every pinned version live at once, with each document its events',
      as: 'editor',
      method: 'POST',
      url: '/releases/1/publish',
      status: 200,
      contains: ['"status":"published"', '"publishedBy":'],
      events: { update: 2, publish: 2 },
      check: async (res, t) => {
        expect(res.body.doc.publishedAt).toBeString();
        expect(await liveTitles(t)).toEqual(['1:Draft one', '2:Live two']);
        expect((await t.request('GET', '/globals/settings')).body.siteName).toBe('Site B');
      },
    },
    {
      name: 'a draft saved after the item was added stays pending',
      setup: newerDraft,
      as: 'editor',
      method: 'POST',
      url: '/releases/1/publish',
      status: 200,
      events: { update: 2, publish: 2 },
      contains: ['"status":"published"'],
      check: async (_res, t) => {
        expect(await liveTitles(t)).toEqual(['1:Draft one', '2:Live two']);
        const draft = await t.request('GET', '/posts/1?draft=true', { token: await as(t, 'editor') });
        expect(draft.body.title).toBe('Draft one, later');
      },
    },
    {
      name: 'an unpublish item stops the document being published',
      setup: (t) =>
        ok(t, 'editor', 'POST', '/releases/1/items', { collection: 'posts', id: 2, action: 'unpublish' }).then(
          () => {},
        ),
      as: 'editor',
      method: 'POST',
      url: '/releases/1/publish',
      status: 200,
      contains: ['"status":"published"'],
      events: { update: 2, publish: 2, unpublish: 1 },
      check: async (_res, t) => expect(await liveTitles(t)).toEqual(['1:Draft one']),
    },
    {
      name: 'one webhook delivery per release target, besides each document its own',
      as: 'editor',
      method: 'POST',
      url: '/releases/1/publish',
      status: 200,
      events: { update: 2, publish: 2 },
      contains: ['"status":"published"'],
      check: async (_res, t) => {
        const release = await deliveries(t, RELEASE_HOOK);
        expect(release).toHaveLength(1);
        expect(JSON.parse(release[0].body)).toMatchObject({
          event: 'release',
          release: { id: 1, title: 'Launch' },
          items: [
            { collection: 'posts', document: 1, action: 'publish' },
            { global: 'settings', action: 'publish' },
          ],
        });
        expect((await deliveries(t, PUBLISH_HOOK)).map((d) => d.event)).toEqual(['publish', 'publish']);
      },
    },
    {
      name: 'one release.publish audit entry besides the per-document entries',
      as: 'editor',
      method: 'POST',
      url: '/releases/1/publish',
      status: 200,
      events: { update: 2, publish: 2 },
      contains: ['"status":"published"'],
      check: async (_res, t) => {
        const entries = await ok(t, 'admin', 'GET', '/audit-log?limit=10');
        const actions = entries.docs.map((e: any) => `${e.action}:${e.collection ?? e.global ?? ''}`);
        expect(actions.slice(0, 3).sort()).toEqual(['publish:posts', 'publish:settings', 'release.publish:']);
      },
    },
    {
      name: 'an item that fails validation refuses the whole publish, naming it, and nothing changes',
      setup: async (t) => {
        await ok(t, 'editor', 'PATCH', '/posts/2?draft=true', { title: '' });
        await ok(t, 'editor', 'POST', '/releases/1/items', { collection: 'posts', id: 2, action: 'publish' });
      },
      as: 'editor',
      method: 'POST',
      url: '/releases/1/publish',
      status: 409,
      contains: ['"collection":"posts"', '"document":2', '"field":"title"', '"item":'],
      events: { '*': 0 },
      check: async (_res, t) => {
        expect(await liveTitles(t)).toEqual(['1:Live one', '2:Live two']);
        expect((await ok(t, 'editor', 'GET', '/releases/1')).status).toBe('open');
        expect(await deliveries(t, RELEASE_HOOK)).toHaveLength(0);
      },
    },
    {
      name: 'a unique value taken by another document refuses the publish',
      setup: async (t) => {
        await ok(t, 'editor', 'PATCH', '/posts/1?draft=true', { slug: 'two' });
        await ok(t, 'editor', 'POST', '/releases/1/items', { collection: 'posts', id: 1, action: 'publish' });
      },
      as: 'editor',
      method: 'POST',
      url: '/releases/1/publish',
      status: 409,
      contains: ['"field":"slug"', '"document":1'],
      events: { '*': 0 },
      check: async (_res, t) => expect(await liveTitles(t)).toEqual(['1:Live one', '2:Live two']),
    },
    {
      name: 'a pinned version that no longer exists refuses the publish',
      setup: async (t) => {
        await t.cms.store.run(`DELETE FROM "_cms_versions" WHERE "kind" = 'global'`);
      },
      as: 'editor',
      method: 'POST',
      url: '/releases/1/publish',
      status: 409,
      contains: ['"global":"settings"', 'no longer exists'],
      events: { '*': 0 },
    },
    {
      name: 'a key without the right to publish an item is refused, naming the first such item',
      setup: async (t) => {
        keys.publish = await editorKey(t, ['releases:publish', 'settings:update']);
      },
      method: 'POST',
      url: '/releases/1/publish',
      headers: {
        get authorization() {
          return `Bearer ${keys.publish}`;
        },
      },
      status: 403,
      contains: ['"item":', '"document":1', 'may not publish'],
      events: { '*': 0 },
    },
    {
      name: 'a key without releases:publish cannot publish',
      setup: async (t) => {
        keys.write = await editorKey(t, ['releases:write', 'posts:update', 'settings:update']);
      },
      method: 'POST',
      url: '/releases/1/publish',
      headers: {
        get authorization() {
          return `Bearer ${keys.write}`;
        },
      },
      status: 403,
      contains: ['releases:publish'],
      events: { '*': 0 },
    },
    {
      name: 'a revert is a new open release that, published, puts back exactly what was live before',
      setup: async (t) => {
        await ok(t, 'editor', 'POST', '/posts?draft=true', { title: 'Never live' });
        await ok(t, 'editor', 'POST', '/releases/1/items', { collection: 'posts', id: 3, action: 'publish' });
        await ok(t, 'editor', 'POST', '/releases/1/publish');
      },
      as: 'editor',
      method: 'POST',
      url: '/releases/1/revert',
      status: 201,
      contains: ['"title":"Revert: Launch"', '"revertOf":1', '"status":"open"'],
      events: { '*': 0 },
      check: async (res, t) => {
        expect(res.body.doc.items.map((i: any) => `${i.collection ?? i.global}:${i.action}`)).toEqual([
          'posts:publish',
          'settings:publish',
          'posts:unpublish',
        ]);
        expect(await liveTitles(t)).toEqual(['1:Draft one', '2:Live two', '3:Never live']);
        await ok(t, 'editor', 'POST', `/releases/${res.body.doc.id}/publish`);
        expect(await liveTitles(t)).toEqual(['1:Live one', '2:Live two']);
        expect((await t.request('GET', '/globals/settings')).body.siteName).toBe('Site A');
      },
    },
    {
      name: 'a release that is not published cannot be reverted',
      as: 'editor',
      method: 'POST',
      url: '/releases/1/revert',
      status: 409,
      contains: ['"errors"'],
    },
    {
      name: 'a published release is not published again',
      setup: (t) => ok(t, 'editor', 'POST', '/releases/1/publish').then(() => {}),
      as: 'editor',
      method: 'POST',
      url: '/releases/1/publish',
      status: 409,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
  ],
  { seed },
);

const HOUR = 3600_000;
const inAnHour = (t: TestServer) => new Date(t.clock.now() + HOUR).toISOString();
const scheduleIn = async (t: TestServer) => {
  await ok(t, 'editor', 'POST', '/releases/1/schedule', { at: inAnHour(t) });
};
/** The job runner's run an hour and a minute later. */
const runLater = async (t: TestServer) => {
  t.clock.advance(HOUR + 60_000);
  return runJobs(t.cms);
};

runScenarios(
  'releases: scheduling',
  releasesConfig,
  [
    {
      name: 'scheduling sets the time and the status',
      as: 'editor',
      method: 'POST',
      url: '/releases/1/schedule',
      body: (t: TestServer) => ({ at: inAnHour(t) }),
      status: 200,
      contains: ['"status":"scheduled"', '"publishAt":"2026-'],
      events: { '*': 0 },
    },
    {
      name: 'a time in the past is refused',
      as: 'editor',
      method: 'POST',
      url: '/releases/1/schedule',
      body: { at: '2020-01-01T00:00:00.000Z' },
      status: 400,
      contains: ['"field":"at"'],
    },
    {
      name: 'items of a scheduled release cannot change',
      setup: scheduleIn,
      as: 'editor',
      method: 'POST',
      url: '/releases/1/items',
      body: { collection: 'posts', id: 2, action: 'publish' },
      status: 409,
      contains: ['open'],
    },
    {
      name: 'unscheduling opens the release again',
      setup: scheduleIn,
      as: 'editor',
      method: 'POST',
      url: '/releases/1/unschedule',
      status: 200,
      events: { '*': 0 },
      contains: ['"status":"open"', '"publishAt":null'],
      check: async (_res, t) => {
        expect((await runLater(t)).jobs.ran).toBe(0);
        expect(await liveTitles(t)).toEqual(['1:Live one', '2:Live two']);
      },
    },
    {
      name: 'the job runner publishes a scheduled release once its time has come',
      setup: scheduleIn,
      as: 'editor',
      method: 'GET',
      url: '/releases/1',
      status: 200,
      contains: ['"status":"scheduled"'],
      check: async (_res, t) => {
        t.clock.advance(HOUR - 60_000);
        expect((await runJobs(t.cms)).jobs.ran).toBe(0);
        expect((await runLater(t)).jobs.ran).toBe(1);
        expect(await liveTitles(t)).toEqual(['1:Draft one', '2:Live two']);
        const release = await ok(t, 'editor', 'GET', '/releases/1');
        expect(release).toMatchObject({ status: 'published', publishedBy: null });
      },
    },
    {
      name: 'a scheduled publish that fails marks the release failed with its errors, nothing published',
      setup: async (t) => {
        await ok(t, 'editor', 'PATCH', '/posts/2?draft=true', { title: '' });
        await ok(t, 'editor', 'POST', '/releases/1/items', { collection: 'posts', id: 2, action: 'publish' });
        await scheduleIn(t);
        expect((await runLater(t)).jobs.failed).toBe(1);
      },
      as: 'editor',
      method: 'GET',
      url: '/releases/1',
      status: 200,
      contains: ['"status":"failed"', '"field":"title"', '"document":2'],
      check: async (_res, t) => {
        expect(await liveTitles(t)).toEqual(['1:Live one', '2:Live two']);
        // A failed release can be scheduled again.
        await scheduleIn(t);
        expect((await ok(t, 'editor', 'GET', '/releases/1')).status).toBe('scheduled');
      },
    },
  ],
  { seed },
);

runScenarios('releases: off', () => ({ ...releasesConfig(), releases: undefined }), [
  {
    name: 'without releases: true the routes answer 404',
    as: 'admin',
    method: 'POST',
    url: '/releases',
    body: { title: 'x' },
    status: 404,
    contains: ['"errors"'],
  },
]);

/** Post 1 live with a pending draft, post 2 live, the settings global live with a pending draft, and release 1 ("Launch", the editor's) holding post 1 and the global. */
async function seed(t: TestServer) {
  await t.session('editor2');
  await t.session('admin');
  await ok(t, 'editor', 'POST', '/posts', { title: 'Live one', slug: 'one', status: 'published' });
  await ok(t, 'editor', 'PATCH', '/posts/1?draft=true', { title: 'Draft one' });
  await ok(t, 'editor', 'POST', '/posts', { title: 'Live two', slug: 'two', status: 'published' });
  await ok(t, 'editor', 'POST', '/pages', { title: 'Page' });
  await ok(t, 'editor', 'POST', '/globals/settings', { siteName: 'Site A', status: 'published' });
  await ok(t, 'editor', 'POST', '/globals/settings?draft=true', { siteName: 'Site B' });
  await ok(t, 'editor', 'POST', '/releases', { title: 'Launch' });
  await ok(t, 'editor', 'POST', '/releases/1/items', { collection: 'posts', id: 1, action: 'publish' });
  await ok(t, 'editor', 'POST', '/releases/1/items', { global: 'settings', action: 'publish' });
  await t.cms.store.run('DELETE FROM "webhook-deliveries"');
}
