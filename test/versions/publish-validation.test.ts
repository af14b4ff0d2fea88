/**
 * Publishing validates the whole resulting document, not only the fields sent:
 * a never-saved global, a draft saved without a required field's group row, a localized field empty in
 * the locale being published. Draft saves stay partial.
 */
import { expect } from 'bun:test';
import { runScenarios, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  localization: { locales: ['en', 'de'], defaultLocale: 'en' },
  collections: [
    {
      slug: 'posts',
      drafts: true,
      fields: [
        { name: 'title', type: 'text', required: true, localized: true },
        { name: 'seo', type: 'group', fields: [{ name: 'summary', type: 'text', required: true }] },
        { name: 'note', type: 'text' },
      ],
    },
    { slug: 'pages', fields: [{ name: 'title', type: 'text' }] },
  ],
  globals: [
    {
      slug: 'banner',
      drafts: true,
      fields: [
        { name: 'text', type: 'text', required: true },
        { name: 'link', type: 'text' },
      ],
    },
    {
      slug: 'site',
      fields: [
        { name: 'siteName', type: 'text', required: true },
        { name: 'tagline', type: 'text' },
      ],
    },
  ],
};

// Globals start never saved. One post is a draft with its title in English only and its nested
// required field filled.
async function seed(t: TestServer) {
  const admin = await t.session('admin');
  const res = await t.request('POST', '/posts?draft=true', {
    token: admin.token,
    body: { title: 'One', seo: { summary: 'S' } },
  });
  if (res.status !== 201 || res.body.doc.id !== 1) throw new Error(res.text);
}

/** Sends as the table's admin and expects the status: what a row's setup does before its own request. */
async function asAdmin(t: TestServer, method: string, url: string, body: unknown, status: number) {
  const admin = await t.session('admin');
  const res = await t.request(method, url, { token: admin.token, body });
  expect(res.status).toBe(status);
}
const bannerDraft = (t: TestServer) => asAdmin(t, 'POST', '/globals/banner?draft=true', { link: '/x' }, 200);
const publishPost = (t: TestServer) =>
  asAdmin(t, 'PATCH', '/posts/1?locale=en', { status: 'published', note: 'n' }, 200);

runScenarios(
  'publishing validates the whole document',
  config,
  [
    {
      name: 'publishing a never-saved drafts global without its required field is a 400 naming it',
      as: 'admin',
      method: 'POST',
      url: '/globals/banner',
      body: { link: '/x', status: 'published' },
      status: 400,
      contains: ['"field":"text"', 'This field is required.'],
      events: {},
    },
    {
      name: 'the global stays unpublished',
      as: 'admin',
      method: 'GET',
      url: '/globals/banner',
      setup: (t) => asAdmin(t, 'POST', '/globals/banner', { link: '/x', status: 'published' }, 400),
      status: 200,
      contains: ['"status":"draft"', '"text":null'],
      notContains: ['"link":"/x"'],
    },
    {
      name: 'a draft of it may leave the field empty',
      as: 'admin',
      method: 'POST',
      url: '/globals/banner?draft=true',
      body: { link: '/x' },
      status: 200,
      contains: ['"status":"draft"', '"link":"/x"'],
      events: { draft: 1 },
    },
    {
      name: 'publishing the draft still needs the field',
      as: 'admin',
      method: 'POST',
      url: '/globals/banner?draft=true',
      body: { status: 'published' },
      setup: bannerDraft,
      status: 400,
      contains: ['"field":"text"', 'This field is required.'],
      events: {},
    },
    {
      name: 'with the field sent, it publishes',
      as: 'admin',
      method: 'POST',
      url: '/globals/banner',
      body: { text: 'Hello', status: 'published' },
      setup: bannerDraft,
      status: 200,
      contains: ['"status":"published"', '"link":"/x"'],
      events: { update: 1, publish: 1 },
    },
    {
      name: 'a global without drafts: saving another field while the required one was never set is a 400',
      as: 'admin',
      method: 'POST',
      url: '/globals/site',
      body: { tagline: 'Fast' },
      status: 400,
      contains: ['"field":"siteName"', 'This field is required.'],
      events: {},
    },
    {
      name: 'a global without drafts saves once the required field is given',
      as: 'admin',
      method: 'POST',
      url: '/globals/site',
      body: { siteName: 'Site', tagline: 'Fast' },
      status: 200,
      contains: ['"siteName":"Site"', '"tagline":"Fast"'],
      events: { update: 1 },
    },
    {
      name: 'a draft document whose draft empties a required nested field',
      as: 'admin',
      method: 'POST',
      url: '/posts?draft=true',
      body: { title: 'One', seo: { summary: 'S' } },
      status: 201,
      contains: ['"title":"One"', '"summary":"S"', '"status":"draft"'],
      events: { draft: 1 },
    },
    {
      name: 'publishing with only a status reports the localized field empty in that locale',
      as: 'admin',
      method: 'PATCH',
      url: '/posts/1?locale=de',
      body: { status: 'published' },
      status: 400,
      contains: ['"field":"title"', 'This field is required.'],
      events: {},
    },
    {
      name: 'publishing in the default locale works',
      as: 'admin',
      method: 'PATCH',
      url: '/posts/1?locale=en',
      body: { status: 'published', note: 'n' },
      status: 200,
      contains: ['"status":"published"'],
      events: { update: 1, publish: 1 },
    },
    {
      name: 'a plain save of a published document checks the whole document too',
      as: 'admin',
      method: 'PATCH',
      url: '/posts/1?locale=de',
      body: { note: 'x' },
      setup: publishPost,
      status: 400,
      contains: ['"field":"title"', 'This field is required.'],
      events: {},
    },
    {
      name: 'a draft save stays partial',
      as: 'admin',
      method: 'PATCH',
      url: '/posts/1?locale=de&draft=true',
      body: { note: 'x' },
      setup: publishPost,
      status: 200,
      contains: ['"note":"x"', '"status":"draft"'],
      events: { draft: 1 },
    },
    {
      name: 'a collection without drafts is unaffected when nothing is required',
      as: 'admin',
      method: 'POST',
      url: '/pages',
      body: {},
      status: 201,
      contains: ['"title":null', 'Successfully created.'],
      events: { create: 1 },
    },
  ],
  { seed },
);
