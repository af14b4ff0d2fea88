/**
 * Attack (docs/security.md): make the server answer 500 with malformed input. A cookie that is not valid
 * percent-encoding is no cookie; searches with thousands of words, huge lists or a long sort are a 400
 * naming what is too large, never an engine error.
 */
import { runScenarios, type Scenario, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const config: UserConfig = {
  collections: [
    {
      slug: 'notes',
      access: { read: () => true },
      fields: [
        { name: 'title', type: 'text' },
        { name: 't', type: 'text' },
        { name: 'tags', type: 'select', hasMany: true, options: ['a', 'b'] },
      ],
    },
    { slug: 'drafts', drafts: true, fields: [{ name: 'title', type: 'text' }] },
  ],
};

// Bun refuses request heads over 16 KB (431), so the attacks use short words to stay under it.
const words = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' ');
const notes = (query: string) => `/notes?${query}`;
const tooLarge = (field: string, fragment: string): Pick<Scenario, 'status' | 'contains' | 'check'> => ({
  status: 400,
  contains: [fragment],
  check: (res) => {
    if (res.body.errors[0].field !== field) throw new Error(`expected field ${field}: ${res.text}`);
  },
});

runScenarios(
  'malformed cookies are no cookie',
  config,
  [
    {
      name: 'cms-session=% on a public read',
      method: 'GET',
      url: '/notes',
      headers: { cookie: 'cms-session=%' },
      status: 200,
      contains: ['"docs":[]', '"totalDocs":0'],
    },
    {
      name: 'cms-session=% on /users/me is nobody',
      method: 'GET',
      url: '/users/me',
      headers: { cookie: 'cms-session=%' },
      status: 200,
      contains: ['"user":null'],
    },
    {
      name: 'broken escapes beside a valid cookie',
      method: 'GET',
      url: '/notes',
      headers: { cookie: 'other=%E0%A4%A; cms-session=%zz%' },
      status: 200,
      contains: ['"docs":[]', '"totalDocs":0'],
    },
    {
      name: 'cms-session=% on a write needs login',
      method: 'POST',
      url: '/notes',
      headers: { cookie: 'cms-session=%', 'x-csrf-token': '%' },
      body: { title: 'x' },
      status: 401,
      contains: ['"errors"', 'You must be logged in'],
      events: { '*': 0 },
    },
    {
      name: 'logout with a broken cookie',
      method: 'POST',
      url: '/users/logout',
      headers: { cookie: 'cms-session=%' },
      status: 200,
      events: { '*': 0 },
      contains: ['"message":"Logged out."'],
    },
  ],
  {},
);

runScenarios(
  'oversized searches are a 400, not a 500',
  config,
  [
    {
      name: 'like with thousands of words',
      method: 'GET',
      url: notes(`where[title][like]=${encodeURIComponent(words(3000))}`),
      ...tooLarge('title', 'at most 20 words'),
    },
    {
      name: 'not_like with thousands of words',
      method: 'GET',
      url: notes(`where[title][not_like]=${encodeURIComponent(words(3000))}`),
      ...tooLarge('title', 'at most 20 words'),
    },
    {
      name: 'contains with a very long term',
      method: 'GET',
      url: notes(`where[title][contains]=${'x'.repeat(5000)}`),
      ...tooLarge('title', 'longer than 1000 characters'),
    },
    {
      name: 'like on a hasMany field with thousands of words',
      method: 'GET',
      url: notes(`where[tags][like]=${encodeURIComponent(words(3000))}`),
      ...tooLarge('tags', 'at most 20 words'),
    },
    {
      name: 'in with thousands of values',
      method: 'GET',
      url: notes(`where[title][in]=${words(3000).replaceAll(' ', ',')}`),
      ...tooLarge('title', 'at most 500 values'),
    },
    {
      name: 'many conditions of many words add up past the total',
      method: 'GET',
      url: notes(
        Array.from({ length: 60 }, (_, i) => `where[or][${i}][title][like]=${encodeURIComponent(words(20))}`).join('&'),
      ),
      status: 400,
      contains: ['more than 1000 values'],
    },
    {
      name: 'sort by thousands of fields',
      method: 'GET',
      url: notes(`sort=${Array.from({ length: 2500 }, () => 't').join(',')}`),
      ...tooLarge('sort', 'at most 10 fields'),
    },
    {
      name: 'like given a list where a word goes',
      method: 'GET',
      url: notes('where[title][like][0]=a&where[title][like][1]=b'),
      ...tooLarge('title', 'single value'),
    },
    {
      name: 'twenty words still work',
      method: 'GET',
      url: notes(`where[title][like]=${encodeURIComponent(words(20))}`),
      status: 200,
      contains: ['"totalDocs":0'],
    },
  ],
  {},
);

/** A drafts document with one version, made before any row runs: the versions rows page through it. */
let draftId = 0;
const seedDraft = async (t: TestServer) => {
  const { token } = await t.user('admin');
  const res = await t.request('POST', '/drafts', { token, body: { title: 'v1', status: 'published' } });
  draftId = res.body.doc.id;
};

runScenarios(
  'pages past any offset SQLite can hold are a 400',
  config,
  [
    {
      name: 'setup: a document with a version',
      method: 'POST',
      url: '/drafts',
      as: 'admin',
      body: { title: 'v1', status: 'published' },
      status: 201,
      events: { create: 1, publish: 1 },
      contains: ['"title":"v1"', '"_status":"published"'],
    },
    { name: 'a list', method: 'GET', url: notes('page=99999999999999999999'), ...tooLarge('page', 'page') },
    {
      name: 'the versions of a document',
      method: 'GET',
      url: () => `/drafts/${draftId}/versions?page=99999999999999999999`,
      as: 'admin',
      ...tooLarge('page', 'page'),
    },
    {
      name: 'the largest page that still has an offset is an empty page',
      method: 'GET',
      url: () => `/drafts/${draftId}/versions?page=90071992547409`,
      as: 'admin',
      status: 200,
      contains: ['"docs":[]', '"totalDocs":1', '"page":90071992547409'],
    },
    {
      name: 'one past it is a 400',
      method: 'GET',
      url: '/drafts?page=90071992547410',
      as: 'admin',
      ...tooLarge('page', 'at most 90071992547409'),
    },
  ],
  { seed: seedDraft },
);

const deep = (levels: number) => '{"title":'.repeat(levels) + '"x"' + '}'.repeat(levels);
const payloadForm = (payload: string) => {
  const form = new FormData();
  form.append('file', new Blob(['hello'], { type: 'text/plain' }), 'a.txt');
  form.append('_payload', payload);
  return form;
};

runScenarios(
  'JSON nested thousands of levels deep is a 400',
  config,
  [
    {
      name: 'a preview (it echoes the body back)',
      method: 'POST',
      url: '/notes/preview',
      as: 'admin',
      body: deep(200_000),
      headers: { 'content-type': 'application/json' },
      status: 400,
      contains: ['nested more than 100 levels'],
    },
    {
      name: 'a create',
      method: 'POST',
      url: '/notes',
      as: 'admin',
      body: deep(200_000),
      headers: { 'content-type': 'application/json' },
      status: 400,
      contains: ['nested more than 100 levels'],
    },
    {
      name: 'an array body',
      method: 'POST',
      url: '/notes',
      as: 'admin',
      body: '['.repeat(50_000) + ']'.repeat(50_000),
      headers: { 'content-type': 'application/json' },
      status: 400,
      contains: ['"errors"', 'nested more than 100 levels'],
      events: { '*': 0 },
    },
    {
      name: "an upload's _payload",
      method: 'POST',
      url: '/media',
      as: 'admin',
      body: () => payloadForm(deep(20_000)),
      ...tooLarge('_payload', 'nested more than 100 levels'),
    },
    {
      name: 'a hundred levels are still fine',
      method: 'POST',
      url: '/notes/preview',
      as: 'admin',
      body: JSON.stringify({ data: { tags: JSON.parse(`${'['.repeat(97)}${']'.repeat(97)}`) } }),
      headers: { 'content-type': 'application/json' },
      status: 200,
      events: { '*': 0 },
      contains: ['"doc":{', '/notes?preview='],
    },
  ],
  {},
);
