/** Autosave: drafts saved while typing collapse into one version, never publish; Payload's versions spelling; collection options. */
import { expect } from 'bun:test';
import { runScenarios, type Scenario } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const open = { read: () => true, create: () => true, update: () => true, delete: () => true };
const config: UserConfig = {
  collections: [
    { slug: 'posts', access: open, drafts: { autosave: { interval: 500 } }, fields: [{ name: 'title', type: 'text' }] },
    {
      slug: 'pages',
      access: open,
      versions: { drafts: { autosave: true }, maxPerDoc: 5 },
      fields: [{ name: 'title', type: 'text' }],
    },
    { slug: 'plain', access: open, timestamps: false, defaultSort: 'title', fields: [{ name: 'title', type: 'text' }] },
  ],
  globals: [
    {
      slug: 'banner',
      access: { read: () => true, update: () => true },
      drafts: { autosave: true },
      fields: [{ name: 'text', type: 'text' }],
    },
  ],
};

const versions = async (t: any, path: string) =>
  (await t.request('GET', `${path}/versions?limit=100`, { token: (await t.session('admin')).token })).body;

const scenarios: Scenario[] = [
  {
    name: 'create a published post',
    method: 'POST',
    url: '/posts',
    body: { title: 'Live', status: 'published' },
    status: 201,
    events: { create: 1, publish: 1 },
    contains: ['"doc":{"id":2', '"title":"Live"', '"status":"published"'],
  },
  {
    name: 'first autosave saves a draft',
    method: 'PATCH',
    url: '/posts/1?draft=true&autosave=true',
    body: { title: 'Typing 1' },
    status: 200,
    contains: ['"id":1', '"title":"Typing 1"', '"status":"draft"'],
    events: { draft: 1 },
  },
  {
    name: 'consecutive autosaves update the same version',
    setup: async (t) => {
      await t.request('PATCH', '/posts/1?draft=true&autosave=true', { body: { title: 'Typing 1' } });
    },
    method: 'PATCH',
    url: '/posts/1?draft=true&autosave=true',
    body: { title: 'Typing 2' },
    status: 200,
    events: { draft: 1 },
    check: async (_res, t) => {
      await t.request('PATCH', '/posts/1?draft=true&autosave=true', { body: { title: 'Typing 3' } });
      const list = await versions(t, '/posts/1');
      expect(list.totalDocs).toBe(2);
      expect(list.docs[0]).toMatchObject({ status: 'draft', autosave: true, version: { title: 'Typing 3' } });
    },
  },
  {
    name: 'autosave never publishes, even when asked',
    method: 'PATCH',
    url: '/posts/1?autosave=true',
    body: { title: 'Sneaky', status: 'published' },
    status: 200,
    events: { draft: 1 },
    check: async (_res, t) => {
      const live = await t.request('GET', '/posts/1');
      expect(live.body.title).toBe('Live');
      const draft = await t.request('GET', '/posts/1?draft=true', { token: (await t.session('editor')).token });
      expect(draft.body.title).toBe('Sneaky');
    },
  },
  {
    name: 'a manual save starts a new version; the next autosave another',
    // Two autosaves before it collapse into the one autosaved version 'Sneaky' ends as.
    setup: async (t) => {
      await t.request('PATCH', '/posts/1?draft=true&autosave=true', { body: { title: 'Typing 1' } });
      await t.request('PATCH', '/posts/1?autosave=true', { body: { title: 'Sneaky', status: 'published' } });
    },
    method: 'PATCH',
    url: '/posts/1?draft=true',
    body: { title: 'Saved' },
    status: 200,
    events: { draft: 1 },
    check: async (_res, t) => {
      await t.request('PATCH', '/posts/1?draft=true&autosave=true', { body: { title: 'After save' } });
      const list = await versions(t, '/posts/1');
      expect(list.docs.map((v: any) => [v.version.title, v.autosave ?? false])).toEqual([
        ['After save', true],
        ['Saved', false],
        ['Sneaky', true],
        ['Live', false],
      ]);
    },
  },
  {
    name: "Payload's versions spelling gives drafts",
    method: 'POST',
    url: '/pages?draft=true',
    body: { title: 'Draft page' },
    status: 201,
    events: { draft: 1 },
    contains: ['"status":"draft"'],
  },
  {
    name: 'autosave on a global collapses too',
    method: 'POST',
    url: '/globals/banner?draft=true&autosave=true',
    body: { text: 'one' },
    status: 200,
    events: { draft: 1 },
    check: async (_res, t) => {
      await t.request('POST', '/globals/banner?draft=true&autosave=true', { body: { text: 'two' } });
      const list = await versions(t, '/globals/banner');
      expect(list.docs.filter((v: any) => v.autosave)).toHaveLength(1);
    },
  },
  {
    name: 'autosave needs drafts',
    method: 'PATCH',
    url: '/plain/1?autosave=true',
    setup: async (t) => {
      await t.request('POST', '/plain', { body: { title: 'b' } });
    },
    body: { title: 'x' },
    status: 400,
    contains: ['"field":"autosave"', 'autosave needs drafts on this collection or global.'],
  },
  {
    name: 'timestamps: false reads without createdAt/updatedAt; defaultSort orders lists',
    method: 'GET',
    url: '/plain',
    status: 200,
    // Created out of order, so the list's order comes from defaultSort.
    setup: async (t) => {
      await t.request('POST', '/plain', { body: { title: 'b' } });
      await t.request('POST', '/plain', { body: { title: 'a' } });
    },
    notContains: ['createdAt', 'updatedAt'],
    check: (res) => expect(res.body.docs.map((d: any) => d.title)).toEqual(['a', 'b']),
  },
  {
    name: 'the admin config carries autosave',
    method: 'GET',
    url: '/_admin/config',
    as: 'editor',
    status: 200,
    check: (res) =>
      expect(res.body.collections.find((c: any) => c.slug === 'posts').autosave).toEqual({ interval: 500 }),
  },
];

runScenarios('autosave and collection options', config, scenarios, {
  async seed(t) {
    await t.request('POST', '/posts', { body: { title: 'Live', status: 'published' } });
  },
});
