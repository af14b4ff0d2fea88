/**
 * Drafts are saved unfinished, as in Payload: a draft checks the types and shapes of its values but not
 * `required`, `minRows`, `unique` or custom `validate` functions; publishing (directly, on schedule, or a
 * draft published later) checks everything and names each field; `drafts: { validate: true }` (or Payload's
 * `versions.drafts.validate`) checks drafts fully. REST, GraphQL and the Local API share the operations.
 */
import { expect, test } from 'bun:test';
import { quietLog, runScenarios, sharedTestDatabase, tempDir, type Scenario, type TestServer } from '../harness.ts';
import { getCMS } from '../../src/local.ts';
import type { UserConfig } from '../../src/config/types.ts';

const JOBS_SECRET = 'draft-validation-cron-secret';
const capitals = (value: unknown) =>
  value === null || value === undefined || /^[A-Z]+$/.test(String(value)) || 'Use capital letters only.';

const postFields: NonNullable<UserConfig['collections']>[number]['fields'] = [
  { name: 'title', type: 'text', required: true },
  { name: 'slug', type: 'text', unique: true },
  { name: 'code', type: 'text', validate: capitals },
  { name: 'views', type: 'number' },
  { name: 'tags', type: 'array', minRows: 2, fields: [{ name: 'name', type: 'text', required: true }] },
  { name: 'layout', type: 'blocks', blocks: [{ slug: 'cta', fields: [{ name: 'heading', type: 'text' }] }] },
  { name: 'content', type: 'richText', label: false },
];

const config: UserConfig = {
  jobs: { secret: JOBS_SECRET },
  collections: [
    { slug: 'posts', drafts: true, access: { read: () => true }, fields: postFields },
    { slug: 'strict', drafts: { validate: true }, fields: [{ name: 'title', type: 'text', required: true }] },
    {
      slug: 'payload-strict',
      versions: { drafts: { validate: true } },
      fields: [{ name: 'title', type: 'text', required: true }],
    },
  ],
};

const complete = { title: 'Live', slug: 'live', code: 'OK', tags: [{ name: 'a' }, { name: 'b' }] };

/** Post 1 is published and complete; post 2 is published with the slug "two". */
async function seed(t: TestServer) {
  const admin = await t.session('admin');
  for (const body of [complete, { ...complete, title: 'Two', slug: 'two' }]) {
    const res = await t.request('POST', '/posts', { token: admin.token, body: { ...body, status: 'published' } });
    if (res.status !== 201) throw new Error(res.text);
  }
}

const ids: Record<string, number> = {};
const asAdmin = async (t: TestServer, method: string, url: string, body?: unknown) => {
  const res = await t.request(method, url, { token: (await t.session('admin')).token, body });
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res.body;
};
/** A new post saved only as a draft: no title, one tag of two, a code in lower case. */
const unfinishedDraft = async (t: TestServer) => {
  ids.draft = (
    await asAdmin(t, 'POST', '/posts?draft=true', { views: 1, code: 'lower', tags: [{ name: 'a' }] })
  ).doc.id;
};
const gql = (query: string) => ({ query });

const rows: Scenario[] = [
  {
    name: 'a new draft may leave required fields empty and lists below their minimum',
    as: 'admin',
    method: 'POST',
    url: '/posts?draft=true',
    body: { views: 3, tags: [{}] },
    status: 201,
    contains: ['"status":"draft"', '"views":3', '"title":null'],
    events: { draft: 1, '*': 0 },
  },
  {
    name: 'a draft skips custom validate functions',
    as: 'admin',
    method: 'POST',
    url: '/posts?draft=true',
    body: { code: 'lower' },
    status: 201,
    contains: ['"code":"lower"', '"status":"draft"'],
    events: { draft: 1, '*': 0 },
  },
  {
    name: 'a draft still refuses a value of the wrong type',
    as: 'admin',
    method: 'POST',
    url: '/posts?draft=true',
    body: { views: 'many' },
    status: 400,
    contains: ['"field":"views"', 'must be a number'],
    events: {},
  },
  {
    name: 'a draft still refuses an unknown block',
    as: 'admin',
    method: 'POST',
    url: '/posts?draft=true',
    body: { layout: [{ blockType: 'nope' }] },
    status: 400,
    contains: ['"field":"layout.0.blockType"', 'Unknown block type'],
    events: {},
  },
  {
    name: 'a draft still refuses malformed rich text',
    as: 'admin',
    method: 'POST',
    url: '/posts?draft=true',
    body: { content: { root: { type: 'root', children: [{ type: 'bogus' }] } } },
    status: 400,
    contains: ['"field":"content.root.children.0"'],
    events: {},
  },
  {
    name: 'a draft of a published post may empty a required field and leaves the live values alone',
    as: 'admin',
    method: 'PATCH',
    url: '/posts/1?draft=true',
    body: { title: '', tags: [], code: 'bad' },
    status: 200,
    contains: ['"status":"draft"', '"title":null', '"code":"bad"'],
    events: { draft: 1, '*': 0 },
    check: async (_res, t) => {
      const live = await t.request('GET', '/posts/1');
      expect(live.body).toMatchObject({ title: 'Live', code: 'OK', status: 'published', tags: complete.tags });
    },
  },
  {
    name: 'a draft of a published post may repeat another post’s unique value',
    as: 'admin',
    method: 'PATCH',
    url: '/posts/1?draft=true',
    body: { slug: 'two' },
    status: 200,
    contains: ['"slug":"two"', '"status":"draft"'],
    events: { draft: 1, '*': 0 },
  },
  {
    name: 'publishing that draft then meets the unique value',
    as: 'admin',
    setup: (t) => asAdmin(t, 'PATCH', '/posts/1?draft=true', { slug: 'two' }),
    method: 'PATCH',
    url: '/posts/1',
    body: { status: 'published' },
    status: 400,
    contains: ['"field":"slug"', 'unique'],
    events: {},
  },
  {
    name: 'publishing an unfinished draft names each field that stops it',
    as: 'admin',
    setup: unfinishedDraft,
    method: 'PATCH',
    url: () => `/posts/${ids.draft}`,
    body: { status: 'published' },
    status: 400,
    contains: ['"field":"title"', '"field":"tags"', '"field":"code"', 'This field is required.', 'Use capital letters'],
    events: {},
    check: async (_res, t) => {
      const read = await asAdmin(t, 'GET', `/posts/${ids.draft}?draft=true`);
      expect(read.status).toBe('draft');
    },
  },
  {
    name: 'publishing the draft with the missing values sent goes live',
    as: 'admin',
    setup: unfinishedDraft,
    method: 'PATCH',
    url: () => `/posts/${ids.draft}`,
    body: { status: 'published', title: 'Done', tags: [{ name: 't' }, { name: 'u' }], code: 'DONE' },
    status: 200,
    contains: ['"status":"published"', '"title":"Done"', '"views":1'],
    events: { update: 1, publish: 1, '*': 0 },
  },
  {
    name: 'creating a published post without its required fields is refused, naming each',
    as: 'admin',
    method: 'POST',
    url: '/posts',
    body: { status: 'published', views: 1, tags: [{}] },
    status: 400,
    contains: ['"field":"title"', '"field":"tags"'],
    events: {},
  },
  {
    name: 'a scheduled publish of an unfinished draft fails and leaves it a draft',
    setup: async (t) => {
      await unfinishedDraft(t);
      await asAdmin(t, 'POST', `/posts/${ids.draft}/schedule`, {
        action: 'publish',
        at: new Date(t.clock.now() + 60_000).toISOString(),
      });
      t.clock.advance(120_000);
    },
    method: 'POST',
    url: '/jobs/run',
    headers: { authorization: `Bearer ${JOBS_SECRET}` },
    status: 200,
    contains: ['"failed":1', '"ran":0'],
    events: {},
    check: async (_res, t) => {
      const read = await asAdmin(t, 'GET', `/posts/${ids.draft}?draft=true`);
      expect(read.status).toBe('draft');
    },
  },
  {
    name: 'an autosave is a draft: it may empty a required field',
    as: 'admin',
    method: 'PATCH',
    url: '/posts/1?autosave=true',
    body: { title: '' },
    status: 200,
    contains: ['"status":"draft"', '"title":null'],
    events: { draft: 1, '*': 0 },
  },
  {
    name: 'drafts: { validate: true } checks drafts fully',
    as: 'admin',
    method: 'POST',
    url: '/strict?draft=true',
    body: {},
    status: 400,
    contains: ['"field":"title"', 'This field is required.'],
    events: {},
  },
  {
    name: 'Payload’s versions.drafts.validate checks drafts fully',
    as: 'admin',
    method: 'POST',
    url: '/payload-strict?draft=true',
    body: {},
    status: 400,
    contains: ['"field":"title"', 'This field is required.'],
    events: {},
  },
  {
    name: 'GraphQL saves an unfinished draft',
    as: 'admin',
    method: 'POST',
    url: '/graphql',
    body: gql('mutation { createPost(data: { views: 2 }, draft: true) { id title _status } }'),
    status: 200,
    contains: ['"createPost":{', '"title":null', '"_status":"draft"'],
    notContains: ['"errors"'],
    events: { draft: 1, '*': 0 },
  },
  {
    name: 'GraphQL refuses to publish without the required fields',
    as: 'admin',
    method: 'POST',
    url: '/graphql',
    body: gql('mutation { createPost(data: { views: 2, _status: published }) { id } }'),
    status: 200,
    contains: ['"errors"', 'This field is required.', '"field":"title"'],
    events: {},
  },
];

runScenarios('drafts skip the checks of a finished document', config, rows, { seed });

test('the Local API saves an unfinished draft and refuses to publish it', async () => {
  const dir = tempDir();
  const db = await sharedTestDatabase(dir);
  const cms = await getCMS({ config: { ...config, database: db.database }, rootDir: dir, log: quietLog });
  try {
    const doc = await cms.create({ collection: 'posts', data: { views: 4 }, draft: true });
    expect(doc).toMatchObject({ status: 'draft', title: null, views: 4 });
    const publish = cms.update({ collection: 'posts', id: doc.id as number, data: { status: 'published' } });
    await expect(publish).rejects.toMatchObject({ status: 400, field: 'title' });
  } finally {
    await cms.close();
    await db.drop();
  }
});
