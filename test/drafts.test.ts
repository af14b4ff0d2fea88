/** Drafts over REST (docs/drafts-and-versions.md): save as draft, publish, unpublish, discard, for documents and globals, with exact events. */
import { describe, expect, test, afterAll, beforeAll } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { quietLog, runScenarios, startTestServer, tempDir, type TestServer } from './harness.ts';
import { getCMS } from '../src/local.ts';
import { draftsConfig } from './fixtures/drafts-config.ts';

runScenarios(
  'drafts: collection documents',
  draftsConfig,
  [
    {
      name: 'create that publishes sends create + publish',
      as: 'editor',
      method: 'POST',
      url: '/posts',
      body: { title: 'Live', status: 'published' },
      status: 201,
      contains: ['"status":"published"'],
      events: { create: 1, publish: 1 },
    },
    {
      name: 'save as draft answers the draft and sends only draft',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/1?draft=true',
      body: { title: 'Draft' },
      status: 200,
      contains: ['"title":"Draft"', '"status":"draft"'],
      events: { draft: 1 },
    },
    {
      name: 'the live document is unchanged',
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Live"', '"status":"published"'],
      notContains: ['Draft'],
    },
    {
      name: 'anonymous draft=true gets the live document',
      method: 'GET',
      url: '/posts/1?draft=true',
      status: 200,
      contains: ['"title":"Live"'],
      notContains: ['Draft'],
    },
    {
      name: 'logged-in read without draft=true gets the live document',
      as: 'editor',
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Live"'],
    },
    {
      name: 'logged-in draft=true gets the pending draft',
      as: 'editor',
      method: 'GET',
      url: '/posts/1?draft=true',
      status: 200,
      contains: ['"title":"Draft"', '"status":"draft"'],
    },
    {
      name: 'list with draft=true overlays pending drafts',
      as: 'editor',
      method: 'GET',
      url: '/posts?draft=true',
      status: 200,
      contains: ['"title":"Draft"'],
      notContains: ['"title":"Live"'],
    },
    {
      name: 'anonymous list with draft=true stays live',
      method: 'GET',
      url: '/posts?draft=true',
      status: 200,
      contains: ['"title":"Live"'],
      notContains: ['"title":"Draft"'],
    },
    {
      name: 'a second draft save starts from the pending draft',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/1?draft=true',
      body: { views: 5 },
      status: 200,
      contains: ['"title":"Draft"', '"views":5'],
      events: { draft: 1 },
    },
    {
      name: 'publishing takes the pending draft, merged with the request, live',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/1',
      body: { status: 'published', body: 'text' },
      status: 200,
      contains: ['"title":"Draft"', '"views":5', '"body":"text"', '"status":"published"'],
      events: { update: 1, publish: 1 },
    },
    {
      name: 'anonymous readers now see the published draft',
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Draft"', '"views":5'],
    },
    {
      name: 'discard with no pending draft is a 404',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/discard-draft',
      status: 404,
      contains: ['"errors"'],
      events: {},
    },
    {
      name: 'another draft save',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/1?draft=true',
      body: { title: 'Second draft' },
      status: 200,
      contains: ['"title":"Second draft"', '"status":"draft"'],
      events: { draft: 1 },
    },
    {
      name: 'discard removes the pending draft and answers the live document',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/discard-draft',
      status: 200,
      contains: ['"doc":', '"message"', '"title":"Draft"'],
      notContains: ['Second draft'],
      events: {},
    },
    {
      name: 'after discard draft=true reads the live document',
      as: 'editor',
      method: 'GET',
      url: '/posts/1?draft=true',
      status: 200,
      contains: ['"title":"Draft"', '"status":"published"'],
      notContains: ['Second draft'],
    },
    {
      name: 'discard twice is a 404',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/discard-draft',
      status: 404,
      events: {},
    },
    { name: 'unpublish without login is a 401', method: 'POST', url: '/posts/1/unpublish', status: 401, events: {} },
    {
      name: 'unpublish without update access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/posts/1/unpublish',
      status: 403,
      events: {},
    },
    {
      name: 'discard without update access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/posts/1/discard-draft',
      status: 403,
      events: {},
    },
    {
      name: 'unpublish keeps the content as a draft and sends only unpublish',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/unpublish',
      status: 200,
      contains: ['"doc":', '"message"', '"status":"draft"', '"title":"Draft"'],
      events: { unpublish: 1 },
    },
    {
      name: 'an unpublished document is hidden from anonymous readers',
      method: 'GET',
      url: '/posts/1',
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'unpublishing a document that is not published changes nothing',
      as: 'editor',
      method: 'POST',
      url: '/posts/1/unpublish',
      status: 200,
      contains: ['"status":"draft"'],
      events: {},
    },
    {
      name: 'unpublish of a missing document is a 404',
      as: 'editor',
      method: 'POST',
      url: '/posts/999/unpublish',
      status: 404,
      events: {},
    },
    {
      name: 'unpublish on a collection without drafts is a 400',
      as: 'editor',
      method: 'POST',
      url: '/pages/1/unpublish',
      status: 400,
      contains: ['does not have drafts'],
      events: {},
    },
    {
      name: 'discard on a collection without drafts is a 400',
      as: 'editor',
      method: 'POST',
      url: '/pages/1/discard-draft',
      status: 400,
      events: {},
    },
    {
      name: 'unpublish on an unknown collection is a 404',
      as: 'editor',
      method: 'POST',
      url: '/nothing/1/unpublish',
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'unpublish answers 405 to GET',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/unpublish',
      status: 405,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'a new document saved as draft exists with status draft and sends only draft',
      as: 'editor',
      method: 'POST',
      url: '/posts?draft=true',
      body: { title: 'New' },
      status: 201,
      contains: ['"id":2', '"status":"draft"'],
      events: { draft: 1 },
    },
    {
      name: 'the new draft is not visible anonymously',
      method: 'GET',
      url: '/posts/2',
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'the new draft is readable when logged in',
      as: 'editor',
      method: 'GET',
      url: '/posts/2',
      status: 200,
      contains: ['"title":"New"', '"status":"draft"'],
    },
    {
      name: 'a new draft has no pending draft to discard',
      as: 'editor',
      method: 'POST',
      url: '/posts/2/discard-draft',
      status: 404,
      contains: ['"errors"'],
      events: { '*': 0 },
    },
    {
      name: 'draft=true with status published publishes',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/2?draft=true',
      body: { status: 'published' },
      status: 200,
      contains: ['"status":"published"'],
      events: { update: 1, publish: 1 },
    },
    {
      name: 'saving status published on a published document without a draft is only an update',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/2',
      body: { status: 'published', views: 1 },
      status: 200,
      contains: ['"views":1', '"status":"published"'],
      events: { update: 1 },
    },
    {
      name: 'a draft of a published document',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/2?draft=true',
      body: { title: 'New v2' },
      status: 200,
      contains: ['"title":"New v2"', '"status":"draft"'],
      events: { draft: 1 },
    },
    {
      name: 'a plain save takes the pending draft live too (publishing it)',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/2',
      body: { views: 9 },
      status: 200,
      contains: ['"title":"New v2"', '"views":9', '"status":"published"'],
      events: { update: 1, publish: 1 },
    },
    {
      name: 'create without status is a draft document (create only)',
      as: 'editor',
      method: 'POST',
      url: '/posts',
      body: { title: 'Plain' },
      status: 201,
      contains: ['"status":"draft"'],
      events: { create: 1 },
    },
    {
      name: 'a draft save is validated',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/3?draft=true',
      body: { title: null },
      status: 400,
      contains: ['"field":"title"'],
      events: {},
    },
    {
      name: 'a bad status is a 400',
      as: 'editor',
      method: 'PATCH',
      url: '/posts/3',
      body: { status: 'archived' },
      status: 400,
      contains: ['"field":"status"'],
      events: {},
    },
    {
      name: 'deleting sends delete',
      as: 'editor',
      method: 'DELETE',
      url: '/posts/3',
      status: 200,
      contains: ['"doc":{"id":3', '"message"'],
      events: { delete: 1 },
    },
  ],
  async (t) => {
    await t.request('POST', '/pages', { token: (await t.user('editor')).token, body: { title: 'Page' } });
  },
);

runScenarios('drafts: globals', draftsConfig, [
  {
    name: 'a draft of a never-saved global is stored as its draft',
    as: 'editor',
    method: 'POST',
    url: '/globals/settings?draft=true',
    body: { siteName: 'First draft' },
    status: 200,
    contains: ['"siteName":"First draft"', '"status":"draft"'],
    events: { draft: 1 },
  },
  {
    name: 'publishing the global sends update + publish',
    as: 'editor',
    method: 'POST',
    url: '/globals/settings',
    body: { siteName: 'Live site', status: 'published' },
    status: 200,
    contains: ['"status":"published"'],
    events: { update: 1, publish: 1 },
  },
  {
    name: 'a draft of the published global sends only draft',
    as: 'editor',
    method: 'POST',
    url: '/globals/settings?draft=true',
    body: { siteName: 'Next site' },
    status: 200,
    contains: ['"siteName":"Next site"'],
    events: { draft: 1 },
  },
  {
    name: 'the live global is unchanged',
    method: 'GET',
    url: '/globals/settings',
    status: 200,
    contains: ['"siteName":"Live site"'],
  },
  {
    name: 'anonymous draft=true gets the live global',
    method: 'GET',
    url: '/globals/settings?draft=true',
    status: 200,
    contains: ['"siteName":"Live site"'],
  },
  {
    name: 'logged-in draft=true gets the pending draft',
    as: 'editor',
    method: 'GET',
    url: '/globals/settings?draft=true',
    status: 200,
    contains: ['"siteName":"Next site"'],
  },
  {
    name: 'discarding the global draft',
    as: 'editor',
    method: 'POST',
    url: '/globals/settings/discard-draft',
    status: 200,
    contains: ['"siteName":"Live site"', '"message"'],
    events: {},
  },
  {
    name: 'discarding again is a 404',
    as: 'editor',
    method: 'POST',
    url: '/globals/settings/discard-draft',
    status: 404,
    events: {},
  },
  {
    name: 'another draft, then publish it',
    as: 'editor',
    method: 'POST',
    url: '/globals/settings?draft=true',
    body: { siteName: 'Third' },
    status: 200,
    contains: ['"siteName":"Third"', '"status":"draft"'],
    events: { draft: 1 },
  },
  {
    name: 'publishing the global draft of a published global sends update + publish',
    as: 'editor',
    method: 'POST',
    url: '/globals/settings',
    body: { status: 'published' },
    status: 200,
    contains: ['"siteName":"Third"'],
    events: { update: 1, publish: 1 },
  },
  {
    name: 'unpublish without login is a 401',
    method: 'POST',
    url: '/globals/settings/unpublish',
    status: 401,
    events: {},
  },
  {
    name: 'unpublish without update access is a 403',
    as: 'viewer',
    method: 'POST',
    url: '/globals/settings/unpublish',
    status: 403,
    events: {},
  },
  {
    name: 'unpublishing the global sends only unpublish',
    as: 'editor',
    method: 'POST',
    url: '/globals/settings/unpublish',
    status: 200,
    contains: ['"status":"draft"', '"siteName":"Third"'],
    events: { unpublish: 1 },
  },
  {
    name: 'unpublish on a global without drafts is a 400',
    as: 'editor',
    method: 'POST',
    url: '/globals/footer/unpublish',
    status: 400,
    events: {},
  },
  {
    name: 'discard on a global without drafts is a 400',
    as: 'editor',
    method: 'POST',
    url: '/globals/footer/discard-draft',
    status: 400,
    events: {},
  },
  {
    name: 'an unknown global is a 404',
    as: 'editor',
    method: 'POST',
    url: '/globals/nothing/unpublish',
    status: 404,
    contains: ['"errors"'],
    events: { '*': 0 },
  },
  {
    name: 'a global without drafts ignores draft=true',
    as: 'editor',
    method: 'POST',
    url: '/globals/footer?draft=true',
    body: { text: 'x' },
    status: 200,
    contains: ['"text":"x"'],
    notContains: ['"status"'],
    events: { update: 1 },
  },
]);

describe('drafts: localization', () => {
  let t: TestServer;
  let token: string;
  beforeAll(async () => {
    const config = draftsConfig();
    config.localization = { locales: ['en', 'de'], defaultLocale: 'en' };
    config.collections![0].fields[0].localized = true;
    config.collections![0].fields[1].localized = true; // body: never set, stored as null
    config.globals![0].fields[0].localized = true;
    t = await startTestServer(config);
    token = (await t.user('editor')).token;
  });
  afterAll(() => t.stop());
  const call = (method: string, url: string, body?: unknown) => t.request(method, url, { token, body });

  test('a draft saved in one locale leaves every locale of the live document untouched', async () => {
    expect((await call('POST', '/posts?locale=en', { title: 'Hello', status: 'published' })).status).toBe(201);
    expect((await call('PATCH', '/posts/1?locale=de', { title: 'Hallo' })).status).toBe(200);
    const draft = await call('PATCH', '/posts/1?draft=true&locale=de', { title: 'Hallo Entwurf' });
    expect(draft.status).toBe(200);
    expect(draft.body.doc.title).toBe('Hallo Entwurf');
    expect((await call('GET', '/posts/1?locale=all')).body.title).toEqual({ en: 'Hello', de: 'Hallo' });
    expect((await call('GET', '/posts/1?draft=true&locale=de')).body.title).toBe('Hallo Entwurf');
    expect((await call('GET', '/posts/1?draft=true&locale=en')).body.title).toBe('Hello');
    expect((await call('GET', '/posts/1?draft=true&locale=all')).body.title).toEqual({
      en: 'Hello',
      de: 'Hallo Entwurf',
    });
  });

  test('a draft in the other locale builds on the pending draft', async () => {
    expect((await call('PATCH', '/posts/1?draft=true&locale=en', { title: 'Hello draft' })).status).toBe(200);
    expect((await call('GET', '/posts/1?draft=true&locale=all')).body.title).toEqual({
      en: 'Hello draft',
      de: 'Hallo Entwurf',
    });
    expect((await call('GET', '/posts/1?locale=all')).body.title).toEqual({ en: 'Hello', de: 'Hallo' });
  });

  test('publishing in one locale publishes the whole pending draft', async () => {
    const before = t.events.length;
    expect((await call('PATCH', '/posts/1?locale=de', { status: 'published' })).status).toBe(200);
    expect(t.events.slice(before).map((e) => e.type)).toEqual(['update', 'publish']);
    expect((await t.request('GET', '/posts/1?locale=all')).body.title).toEqual({
      en: 'Hello draft',
      de: 'Hallo Entwurf',
    });
  });

  test('restoring a version restores every locale', async () => {
    const versions = (await call('GET', '/posts/1/versions?limit=100&locale=all')).body.docs as any[];
    const first = versions.find(
      (v) => v.status === 'published' && v.version.title?.en === 'Hello' && v.version.title?.de === 'Hallo',
    );
    expect(first).toBeDefined();
    expect((await call('POST', `/posts/1/versions/${first.id}/restore`)).status).toBe(200);
    expect((await t.request('GET', '/posts/1?locale=all')).body.title).toEqual({ en: 'Hello', de: 'Hallo' });
  });

  test('a global draft in one locale leaves the live locales untouched', async () => {
    expect((await call('POST', '/globals/settings?locale=en', { siteName: 'Site', status: 'published' })).status).toBe(
      200,
    );
    expect((await call('POST', '/globals/settings?locale=de', { siteName: 'Seite' })).status).toBe(200);
    expect((await call('POST', '/globals/settings?locale=de&draft=true', { siteName: 'Seite neu' })).status).toBe(200);
    expect((await call('GET', '/globals/settings?locale=all')).body.siteName).toEqual({ en: 'Site', de: 'Seite' });
    expect((await call('GET', '/globals/settings?locale=de&draft=true')).body.siteName).toBe('Seite neu');
  });
});

describe('drafts: Local API', () => {
  test('draft: true saves and reads drafts (access skipped, no user needed)', async () => {
    const dir = tempDir();
    const api = await getCMS({
      config: { ...draftsConfig(), database: path.join(dir, 'data/cms.db') },
      rootDir: dir,
      log: quietLog,
    });
    const doc = await api.create({ collection: 'posts', data: { title: 'Local', status: 'published' } });
    const id = doc.id as number;
    expect(await api.update({ collection: 'posts', id, data: { title: 'Local draft' }, draft: true })).toMatchObject({
      title: 'Local draft',
      status: 'draft',
    });
    expect(await api.findByID({ collection: 'posts', id })).toMatchObject({ title: 'Local', status: 'published' });
    expect(await api.findByID({ collection: 'posts', id, draft: true })).toMatchObject({
      title: 'Local draft',
      status: 'draft',
    });
    expect((await api.find({ collection: 'posts', draft: true })).docs[0]).toMatchObject({ title: 'Local draft' });
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
