/** Drafts over REST (docs/drafts-and-versions.md): save as draft, publish, unpublish, discard, for documents and globals, with exact events. */
import { describe, expect, test, afterAll, beforeAll } from 'bun:test';
import fs from 'node:fs';
import path from 'node:path';
import { quietLog, runScenarios, startTestServer, tempDir, type TestServer } from '../harness.ts';
import { getCMS } from '../../src/local.ts';
import { draftsConfig } from '../fixtures/drafts-config.ts';

/** A request a row's setup makes before its own (a function when its url needs an id a step before made). */
type Request = [method: string, url: string, body?: unknown];
type Step = Request | (() => Request);
/** Makes the steps in order as the table's editor; each must succeed. */
const steps =
  (...list: Step[]) =>
  async (t: TestServer) => {
    const { token } = await t.session('editor');
    for (const step of list) {
      const [method, url, body] = typeof step === 'function' ? step() : step;
      const res = await t.request(method, url, { token, body });
      if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
    }
  };
// The story of post 1 (seeded live as 'Live'), step by step: each row's setup makes the steps before it.
const draft: Step = ['PATCH', '/posts/1?draft=true', { title: 'Draft' }];
const draftViews: Step = ['PATCH', '/posts/1?draft=true', { views: 5 }];
const publish: Step = ['PATCH', '/posts/1', { status: 'published', body: 'text' }];
const secondDraft: Step = ['PATCH', '/posts/1?draft=true', { title: 'Second draft' }];
const discard: Step = ['POST', '/posts/1/discard-draft'];
const unpublish: Step = ['POST', '/posts/1/unpublish'];
/** Ids of the posts a row's setup made. */
const ids: Record<string, number> = {};
const newDraft = async (t: TestServer) => {
  const res = await t.request('POST', '/posts?draft=true', {
    token: (await t.session('editor')).token,
    body: { title: 'New' },
  });
  ids.new = res.body.doc.id;
};
/** The new draft published through draft=true. */
const newPublished = async (t: TestServer) => {
  await newDraft(t);
  await steps(() => ['PATCH', `/posts/${ids.new}?draft=true`, { status: 'published' }])(t);
};
/** Then saved published once more. */
const newPublishedSaved = async (t: TestServer) => {
  await newPublished(t);
  await steps(() => ['PATCH', `/posts/${ids.new}`, { status: 'published', views: 1 }])(t);
};
const plainDoc = async (t: TestServer) => {
  const res = await t.request('POST', '/posts', { token: (await t.session('editor')).token, body: { title: 'Plain' } });
  ids.plain = res.body.doc.id;
};
// The story of the settings global, which the seed leaves never saved.
const firstDraft: Step = ['POST', '/globals/settings?draft=true', { siteName: 'First draft' }];
const liveSite: Step = ['POST', '/globals/settings', { siteName: 'Live site', status: 'published' }];
const nextSite: Step = ['POST', '/globals/settings?draft=true', { siteName: 'Next site' }];
const discardGlobal: Step = ['POST', '/globals/settings/discard-draft'];
const third: Step = ['POST', '/globals/settings?draft=true', { siteName: 'Third' }];
const publishGlobal: Step = ['POST', '/globals/settings', { status: 'published' }];

runScenarios(
  'drafts: collection documents',
  draftsConfig,
  [
    {
      name: 'create that publishes sends create + publish',
      as: 'editor',
      method: 'POST',
      url: '/posts',
      // The seeded post is 1, titled 'Live': the id and a title of its own show this answer is the new post.
      body: { title: 'Also live', status: 'published' },
      status: 201,
      contains: ['"doc":{"id":2,', '"title":"Also live"', '"status":"published"'],
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
      setup: steps(draft),
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Live"', '"status":"published"'],
      notContains: ['Draft'],
    },
    {
      name: 'anonymous draft=true gets the live document',
      setup: steps(draft),
      method: 'GET',
      url: '/posts/1?draft=true',
      status: 200,
      contains: ['"title":"Live"'],
      notContains: ['Draft'],
    },
    {
      name: 'logged-in read without draft=true gets the live document',
      setup: steps(draft),
      as: 'editor',
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Live"'],
    },
    {
      name: 'logged-in draft=true gets the pending draft',
      setup: steps(draft),
      as: 'editor',
      method: 'GET',
      url: '/posts/1?draft=true',
      status: 200,
      contains: ['"title":"Draft"', '"status":"draft"'],
    },
    {
      name: 'list with draft=true overlays pending drafts',
      setup: steps(draft),
      as: 'editor',
      method: 'GET',
      url: '/posts?draft=true',
      status: 200,
      contains: ['"totalDocs":1', '"title":"Draft"'],
      notContains: ['"title":"Live"'],
    },
    {
      name: 'anonymous list with draft=true stays live',
      setup: steps(draft),
      method: 'GET',
      url: '/posts?draft=true',
      status: 200,
      contains: ['"totalDocs":1', '"title":"Live"'],
      notContains: ['"title":"Draft"'],
    },
    {
      name: 'a second draft save starts from the pending draft',
      setup: steps(draft),
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
      setup: steps(draft, draftViews),
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
      setup: steps(draft, draftViews, publish),
      method: 'GET',
      url: '/posts/1',
      status: 200,
      contains: ['"title":"Draft"', '"views":5'],
    },
    {
      name: 'discard with no pending draft is a 404',
      setup: steps(draft, draftViews, publish),
      as: 'editor',
      method: 'POST',
      url: '/posts/1/discard-draft',
      status: 404,
      contains: ['"errors"', 'There is no pending draft to discard.'],
      events: {},
    },
    {
      name: 'another draft save',
      setup: steps(draft, draftViews, publish),
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
      setup: steps(draft, draftViews, publish, secondDraft),
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
      setup: steps(draft, draftViews, publish, secondDraft, discard),
      as: 'editor',
      method: 'GET',
      url: '/posts/1?draft=true',
      status: 200,
      contains: ['"title":"Draft"', '"status":"published"'],
      notContains: ['Second draft'],
    },
    {
      name: 'discard twice is a 404',
      setup: steps(draft, draftViews, publish, secondDraft, discard),
      as: 'editor',
      method: 'POST',
      url: '/posts/1/discard-draft',
      status: 404,
      contains: ['"errors"', 'There is no pending draft to discard.'],
      events: {},
    },
    {
      name: 'unpublish without login is a 401',
      method: 'POST',
      url: '/posts/1/unpublish',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: {},
    },
    {
      name: 'unpublish without update access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/posts/1/unpublish',
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: {},
    },
    {
      name: 'discard without update access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/posts/1/discard-draft',
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: {},
    },
    {
      name: 'unpublish keeps the content as a draft and sends only unpublish',
      setup: steps(draft, draftViews, publish),
      as: 'editor',
      method: 'POST',
      url: '/posts/1/unpublish',
      status: 200,
      contains: ['"doc":', '"message"', '"status":"draft"', '"title":"Draft"'],
      events: { unpublish: 1 },
    },
    {
      name: 'an unpublished document is hidden from anonymous readers',
      setup: steps(draft, draftViews, publish, unpublish),
      method: 'GET',
      url: '/posts/1',
      status: 404,
      contains: ['"errors"', 'Document not found.'],
      events: { '*': 0 },
    },
    {
      name: 'unpublishing a document that is not published changes nothing',
      setup: steps(draft, draftViews, publish, unpublish),
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
      contains: ['"errors"', 'Document not found.'],
      events: {},
    },
    {
      name: 'unpublish on a collection without drafts is a 400',
      as: 'editor',
      method: 'POST',
      url: '/pages/1/unpublish',
      status: 400,
      contains: ['"errors"', '\\"pages\\" does not have drafts enabled.'],
      events: {},
    },
    {
      name: 'discard on a collection without drafts is a 400',
      as: 'editor',
      method: 'POST',
      url: '/pages/1/discard-draft',
      status: 400,
      contains: ['"errors"', '\\"pages\\" does not have drafts enabled.'],
      events: {},
    },
    {
      name: 'unpublish on an unknown collection is a 404',
      as: 'editor',
      method: 'POST',
      url: '/nothing/1/unpublish',
      status: 404,
      contains: ['"errors"', 'Collection \\"nothing\\" not found.'],
      events: { '*': 0 },
    },
    {
      name: 'unpublish answers 405 to GET',
      as: 'editor',
      method: 'GET',
      url: '/posts/1/unpublish',
      status: 405,
      contains: ['"errors"', 'Method Not Allowed'],
      events: { '*': 0 },
    },
    {
      name: 'a new document saved as draft exists with status draft and sends only draft',
      as: 'editor',
      method: 'POST',
      url: '/posts?draft=true',
      body: { title: 'New' },
      status: 201,
      contains: ['"title":"New"', '"status":"draft"'],
      events: { draft: 1 },
      check: async (res, t) => {
        const saved = await t.request('GET', `/posts/${res.body.doc.id}`, { token: (await t.session('editor')).token });
        expect(saved.body).toMatchObject({ id: res.body.doc.id, title: 'New', status: 'draft' });
      },
    },
    {
      name: 'the new draft is not visible anonymously',
      setup: newDraft,
      method: 'GET',
      url: () => `/posts/${ids.new}`,
      status: 404,
      contains: ['"errors"', 'Document not found.'],
      events: { '*': 0 },
    },
    {
      name: 'the new draft is readable when logged in',
      setup: newDraft,
      as: 'editor',
      method: 'GET',
      url: () => `/posts/${ids.new}`,
      status: 200,
      contains: ['"title":"New"', '"status":"draft"'],
    },
    {
      name: 'a new draft has no pending draft to discard',
      setup: newDraft,
      as: 'editor',
      method: 'POST',
      url: () => `/posts/${ids.new}/discard-draft`,
      status: 404,
      contains: ['"errors"', 'There is no pending draft to discard.'],
      events: { '*': 0 },
    },
    {
      name: 'draft=true with status published publishes',
      setup: newDraft,
      as: 'editor',
      method: 'PATCH',
      url: () => `/posts/${ids.new}?draft=true`,
      body: { status: 'published' },
      status: 200,
      contains: ['"status":"published"'],
      events: { update: 1, publish: 1 },
    },
    {
      name: 'saving status published on a published document without a draft is only an update',
      setup: newPublished,
      as: 'editor',
      method: 'PATCH',
      url: () => `/posts/${ids.new}`,
      body: { status: 'published', views: 1 },
      status: 200,
      contains: ['"views":1', '"status":"published"'],
      events: { update: 1 },
    },
    {
      name: 'a draft of a published document',
      setup: newPublishedSaved,
      as: 'editor',
      method: 'PATCH',
      url: () => `/posts/${ids.new}?draft=true`,
      body: { title: 'New v2' },
      status: 200,
      contains: ['"title":"New v2"', '"status":"draft"'],
      events: { draft: 1 },
    },
    {
      name: 'a plain save takes the pending draft live too (publishing it)',
      setup: async (t) => {
        await newPublishedSaved(t);
        await steps(() => ['PATCH', `/posts/${ids.new}?draft=true`, { title: 'New v2' }])(t);
      },
      as: 'editor',
      method: 'PATCH',
      url: () => `/posts/${ids.new}`,
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
      contains: ['"title":"Plain"', '"status":"draft"'],
      events: { create: 1 },
    },
    {
      name: 'a draft save still checks the types of its values',
      setup: plainDoc,
      as: 'editor',
      method: 'PATCH',
      url: () => `/posts/${ids.plain}?draft=true`,
      body: { views: 'many' },
      status: 400,
      contains: ['"field":"views"', 'must be a number'],
      events: {},
    },
    {
      name: 'a bad status is a 400',
      setup: plainDoc,
      as: 'editor',
      method: 'PATCH',
      url: () => `/posts/${ids.plain}`,
      body: { status: 'archived' },
      status: 400,
      contains: ['"field":"status"'],
      events: {},
    },
    {
      name: 'deleting sends delete',
      setup: plainDoc,
      as: 'editor',
      method: 'DELETE',
      url: () => `/posts/${ids.plain}`,
      status: 200,
      contains: ['"title":"Plain"', '"message"'],
      events: { delete: 1 },
      check: (res) => expect(res.body.doc.id).toBe(ids.plain),
    },
  ],
  {
    async seed(t) {
      const { token } = await t.session('editor');
      await t.request('POST', '/posts', { token, body: { title: 'Live', status: 'published' } });
      await t.request('POST', '/pages', { token, body: { title: 'Page' } });
    },
  },
);

runScenarios(
  'drafts: globals',
  draftsConfig,
  [
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
      setup: steps(firstDraft),
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
      setup: steps(firstDraft, liveSite),
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
      setup: steps(firstDraft, liveSite, nextSite),
      method: 'GET',
      url: '/globals/settings',
      status: 200,
      contains: ['"siteName":"Live site"'],
    },
    {
      name: 'anonymous draft=true gets the live global',
      setup: steps(firstDraft, liveSite, nextSite),
      method: 'GET',
      url: '/globals/settings?draft=true',
      status: 200,
      contains: ['"siteName":"Live site"'],
    },
    {
      name: 'logged-in draft=true gets the pending draft',
      setup: steps(firstDraft, liveSite, nextSite),
      as: 'editor',
      method: 'GET',
      url: '/globals/settings?draft=true',
      status: 200,
      contains: ['"siteName":"Next site"'],
    },
    {
      name: 'discarding the global draft',
      setup: steps(firstDraft, liveSite, nextSite),
      as: 'editor',
      method: 'POST',
      url: '/globals/settings/discard-draft',
      status: 200,
      contains: ['"siteName":"Live site"', '"message"'],
      events: {},
    },
    {
      name: 'discarding again is a 404',
      setup: steps(firstDraft, liveSite, nextSite, discardGlobal),
      as: 'editor',
      method: 'POST',
      url: '/globals/settings/discard-draft',
      status: 404,
      contains: ['"errors"', 'There is no pending draft to discard.'],
      events: {},
    },
    {
      name: 'another draft, then publish it',
      setup: steps(firstDraft, liveSite, nextSite, discardGlobal),
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
      setup: steps(firstDraft, liveSite, nextSite, discardGlobal, third),
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
      contains: ['"errors"', 'You must be logged in to perform this action.'],
      events: {},
    },
    {
      name: 'unpublish without update access is a 403',
      as: 'viewer',
      method: 'POST',
      url: '/globals/settings/unpublish',
      status: 403,
      contains: ['"errors"', 'You are not allowed to perform this action.'],
      events: {},
    },
    {
      name: 'unpublishing the global sends only unpublish',
      setup: steps(firstDraft, liveSite, nextSite, discardGlobal, third, publishGlobal),
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
      contains: ['"errors"', '\\"footer\\" does not have drafts enabled.'],
      events: {},
    },
    {
      name: 'discard on a global without drafts is a 400',
      as: 'editor',
      method: 'POST',
      url: '/globals/footer/discard-draft',
      status: 400,
      contains: ['"errors"', '\\"footer\\" does not have drafts enabled.'],
      events: {},
    },
    {
      name: 'an unknown global is a 404',
      as: 'editor',
      method: 'POST',
      url: '/globals/nothing/unpublish',
      status: 404,
      contains: ['"errors"', 'Global \\"nothing\\" not found.'],
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
  ],
  {},
);

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
