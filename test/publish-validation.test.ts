/**
 * Publishing validates the whole resulting document, not only the fields sent:
 * a never-saved global, a draft saved without a required field's group row, a localized field empty in
 * the locale being published. Draft saves stay partial.
 */
import { runScenarios } from './harness.ts';
import type { UserConfig } from '../src/config/types.ts';

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

runScenarios('publishing validates the whole document', config, [
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
    status: 200,
    contains: ['"status":"draft"'],
    notContains: ['"link":"/x"'],
  },
  {
    name: 'a draft of it may leave the field empty',
    as: 'admin',
    method: 'POST',
    url: '/globals/banner?draft=true',
    body: { link: '/x' },
    status: 200,
    contains: ['"status":"draft"'],
    events: { draft: 1 },
  },
  {
    name: 'publishing the draft still needs the field',
    as: 'admin',
    method: 'POST',
    url: '/globals/banner?draft=true',
    body: { status: 'published' },
    status: 400,
    contains: ['"field":"text"'],
    events: {},
  },
  {
    name: 'with the field sent, it publishes',
    as: 'admin',
    method: 'POST',
    url: '/globals/banner',
    body: { text: 'Hello', status: 'published' },
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
    contains: ['"field":"siteName"'],
    events: {},
  },
  {
    name: 'a global without drafts saves once the required field is given',
    as: 'admin',
    method: 'POST',
    url: '/globals/site',
    body: { siteName: 'Site', tagline: 'Fast' },
    status: 200,
    events: { update: 1 },
  },
  {
    name: 'a draft document whose draft empties a required nested field',
    as: 'admin',
    method: 'POST',
    url: '/posts?draft=true',
    body: { title: 'One', seo: { summary: 'S' } },
    status: 201,
    events: { draft: 1 },
  },
  {
    name: 'publishing with only a status reports the localized field empty in that locale',
    as: 'admin',
    method: 'PATCH',
    url: '/posts/1?locale=de',
    body: { status: 'published' },
    status: 400,
    contains: ['"field":"title"'],
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
    status: 400,
    contains: ['"field":"title"'],
    events: {},
  },
  {
    name: 'a draft save stays partial',
    as: 'admin',
    method: 'PATCH',
    url: '/posts/1?locale=de&draft=true',
    body: { note: 'x' },
    status: 200,
    events: { draft: 1 },
  },
  {
    name: 'a collection without drafts is unaffected when nothing is required',
    as: 'admin',
    method: 'POST',
    url: '/pages',
    body: {},
    status: 201,
    events: { create: 1 },
  },
]);
