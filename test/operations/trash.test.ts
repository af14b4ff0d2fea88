/**
 * The trash (docs/trash.md): a delete in a collection with `trash` stamps `deletedAt`; the document leaves
 * lists, counts, reads, search, relationship population and GraphQL; `trash=true` lets it through, a PATCH
 * of `deletedAt: null` restores it, a DELETE with `trash=true` removes it for good, and the job runner
 * empties it after `keepDays`. Collections without `trash` keep a final delete.
 */
import { expect } from 'bun:test';
import { runScenarios, type TestServer } from '../harness.ts';
import type { UserConfig } from '../../src/config/types.ts';

const DAY = 86_400_000;
const JOBS_SECRET = 'trash-jobs-secret';
const cron = { authorization: `Bearer ${JOBS_SECRET}` };
/** The seeded posts and link, and what one row's setup made. */
const ids: Record<string, number> = {};
/** A request by the table's admin that must succeed: a 200, or a 201 for a create. */
const asAdmin = async (t: TestServer, method: string, url: string, body?: unknown) => {
  const res = await t.request(method, url, { token: (await t.session('admin')).token, body });
  if (res.status !== 200 && res.status !== 201) throw new Error(`${method} ${url}: ${res.status} ${res.text}`);
  return res;
};
const trash = (t: TestServer, id: number) => asAdmin(t, 'DELETE', `/posts/${id}`);
const restore = (t: TestServer, id: number) => asAdmin(t, 'PATCH', `/posts/${id}?trash=true`, { deletedAt: null });
const trashGarden = async (t: TestServer) => {
  await trash(t, ids.garden);
};
const trashedAndRestored = async (t: TestServer) => {
  await trashGarden(t);
  await restore(t, ids.garden);
};
const graphql = (query: string) => ({ query });

function config(): UserConfig {
  return {
    jobs: { secret: JOBS_SECRET },
    collections: [
      {
        slug: 'posts',
        trash: { keepDays: 30 },
        search: { fields: ['title'] },
        fields: [
          { name: 'title', type: 'text', required: true },
          { name: 'slug', type: 'text', unique: true },
        ],
      },
      { slug: 'links', fields: [{ name: 'post', type: 'relationship', relationTo: 'posts' }] },
      { slug: 'notes', fields: [{ name: 'text', type: 'text' }] },
    ],
  };
}

runScenarios(
  'the trash',
  config,
  [
    {
      name: 'a new document is not in the trash',
      as: 'admin',
      method: 'GET',
      url: () => `/posts/${ids.garden}`,
      status: 200,
      contains: ['"deletedAt":null'],
    },
    {
      name: 'delete moves it to the trash, announced as a delete',
      as: 'admin',
      method: 'DELETE',
      url: () => `/posts/${ids.garden}`,
      status: 200,
      events: { delete: 1 },
      check: (res, t) =>
        expect(res.body.doc).toMatchObject({ id: ids.garden, deletedAt: new Date(t.clock.now()).toISOString() }),
    },
    {
      name: 'the list leaves it out',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: '/posts',
      status: 200,
      contains: ['"totalDocs":1', '"Kept around"'],
      notContains: ['Gardening'],
    },
    {
      name: 'the count leaves it out',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: '/posts/count',
      status: 200,
      contains: ['"totalDocs":1'],
    },
    {
      name: 'reading it is a 404',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: () => `/posts/${ids.garden}`,
      status: 404,
      contains: ['"errors"', 'Document not found.'],
    },
    {
      name: 'updating it is a 404',
      setup: trashGarden,
      as: 'admin',
      method: 'PATCH',
      url: () => `/posts/${ids.garden}`,
      body: { title: 'x' },
      status: 404,
      contains: ['"errors"', 'Document not found.'],
    },
    {
      name: 'deleting it again without trash=true is a 404',
      setup: trashGarden,
      as: 'admin',
      method: 'DELETE',
      url: () => `/posts/${ids.garden}`,
      status: 404,
      contains: ['"errors"', 'Document not found.'],
    },
    {
      name: 'search leaves it out',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: '/posts?search=gardening',
      status: 200,
      contains: ['"totalDocs":0'],
    },
    {
      name: 'search across collections leaves it out',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: '/search?q=gardening',
      status: 200,
      contains: ['"totalDocs":0'],
      notContains: ['Gardening'],
    },
    {
      name: 'a relationship to it reads null',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: () => `/links/${ids.link}?depth=1`,
      status: 200,
      contains: ['"post":null'],
    },
    {
      name: 'GraphQL leaves it out',
      setup: trashGarden,
      as: 'admin',
      method: 'POST',
      url: '/graphql',
      body: graphql('{ Posts { totalDocs docs { title } } }'),
      status: 200,
      events: { '*': 0 },
      contains: ['"totalDocs":1'],
      notContains: ['Gardening'],
    },
    {
      name: 'GraphQL reads it as missing',
      setup: trashGarden,
      as: 'admin',
      method: 'POST',
      url: '/graphql',
      body: () => graphql(`{ Post(id: ${ids.garden}) { title } }`),
      status: 200,
      events: { '*': 0 },
      contains: ['"data":{"Post":null}', 'Document not found.'],
      notContains: ['Gardening'],
    },
    {
      name: 'trash=true lists it beside the others',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: '/posts?trash=true',
      status: 200,
      contains: ['"totalDocs":2', 'Gardening'],
    },
    {
      name: 'trash=true with deletedAt exists lists only the trash',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: '/posts?trash=true&where[deletedAt][exists]=true',
      status: 200,
      contains: ['"totalDocs":1', 'Gardening'],
      notContains: ['Kept around'],
    },
    {
      name: 'deletedAt exists without trash=true finds nothing',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: '/posts?where[deletedAt][exists]=true',
      status: 200,
      contains: ['"totalDocs":0'],
    },
    {
      name: 'trash=true counts it',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: '/posts/count?trash=true',
      status: 200,
      contains: ['"totalDocs":2'],
    },
    {
      name: 'trash=true reads it',
      setup: trashGarden,
      as: 'admin',
      method: 'GET',
      url: () => `/posts/${ids.garden}?trash=true`,
      status: 200,
      contains: ['Gardening', '"deletedAt":"'],
    },
    {
      name: 'a trashed document keeps its unique values',
      setup: trashGarden,
      as: 'admin',
      method: 'POST',
      url: '/posts',
      body: { title: 'Clash', slug: 'garden' },
      status: 400,
      contains: ['"field":"slug"'],
    },
    {
      name: 'deletedAt cannot be set on create',
      as: 'admin',
      method: 'POST',
      url: '/posts',
      body: { title: 'Sneaky', deletedAt: '2020-01-01T00:00:00.000Z' },
      status: 201,
      events: { create: 1 },
      contains: ['"title":"Sneaky"', '"deletedAt":null'],
    },
    {
      name: 'anonymous readers are refused the trash like any read',
      method: 'GET',
      url: '/posts?trash=true',
      status: 401,
      contains: ['"errors"', 'You must be logged in to perform this action.'],
    },
    {
      name: 'PATCH deletedAt: null with trash=true restores, announced as a create',
      setup: trashGarden,
      as: 'admin',
      method: 'PATCH',
      url: () => `/posts/${ids.garden}?trash=true`,
      body: { deletedAt: null },
      status: 200,
      events: { create: 1 },
      check: (res) => expect(res.body.doc).toMatchObject({ id: ids.garden, title: 'Gardening tips', deletedAt: null }),
    },
    {
      name: 'the restored document is back in the list',
      setup: trashedAndRestored,
      as: 'admin',
      method: 'GET',
      url: '/posts',
      status: 200,
      contains: ['"totalDocs":2', 'Gardening'],
    },
    {
      name: 'and in search',
      setup: trashedAndRestored,
      as: 'admin',
      method: 'GET',
      url: '/posts?search=gardening',
      status: 200,
      contains: ['"totalDocs":1'],
    },
    {
      name: 'and populated again',
      setup: trashedAndRestored,
      as: 'admin',
      method: 'GET',
      url: () => `/links/${ids.link}?depth=1`,
      status: 200,
      contains: ['Gardening'],
    },
    {
      name: 'PATCH of a date moves it to the trash too (Payload clients)',
      as: 'admin',
      method: 'PATCH',
      url: () => `/posts/${ids.kept}`,
      body: { deletedAt: '2026-01-01T00:00:00.000Z' },
      status: 200,
      events: { delete: 1 },
      check: (res) => expect(res.body.doc.deletedAt).toBeString(),
    },
    {
      name: 'DELETE with trash=true of a trashed document removes it for good, without a second announcement',
      setup: async (t) => {
        await trash(t, ids.kept);
      },
      as: 'admin',
      method: 'DELETE',
      url: () => `/posts/${ids.kept}?trash=true`,
      status: 200,
      events: {},
      contains: ['"id":', '"title":"Kept around"'],
      check: async (_res, t) =>
        expect(await t.cms.store.get('SELECT id FROM posts WHERE id = ?', [ids.kept])).toBeNull(),
    },
    {
      name: 'it is gone from trash=true too',
      setup: async (t) => {
        await trash(t, ids.kept);
        await asAdmin(t, 'DELETE', `/posts/${ids.kept}?trash=true`);
      },
      as: 'admin',
      method: 'GET',
      url: () => `/posts/${ids.kept}?trash=true`,
      status: 404,
      contains: ['"errors"', 'Document not found.'],
    },
    {
      name: 'DELETE with trash=true of a live document skips the trash',
      setup: async (t) => {
        ids.live = (await asAdmin(t, 'POST', '/posts', { title: 'Live one' })).body.doc.id;
      },
      as: 'admin',
      method: 'DELETE',
      url: () => `/posts/${ids.live}?trash=true`,
      status: 200,
      events: { delete: 1 },
      contains: ['"title":"Live one"', '"deletedAt":null'],
      check: async (_res, t) =>
        expect(await t.cms.store.get('SELECT id FROM posts WHERE id = ?', [ids.live])).toBeNull(),
    },
    {
      name: 'a bulk delete moves every match to the trash',
      as: 'admin',
      method: 'DELETE',
      url: '/posts?where[title][equals]=Gardening tips',
      status: 200,
      events: { delete: 1 },
      contains: ['"deletedAt":"', 'Deleted 1 of 1 documents.'],
      check: (res) => expect(res.body.docs.map((d: any) => d.id)).toEqual([ids.garden]),
    },
    {
      name: 'a bulk restore with trash=true',
      setup: trashGarden,
      as: 'admin',
      method: 'PATCH',
      url: '/posts?trash=true&where[deletedAt][exists]=true',
      body: { deletedAt: null },
      status: 200,
      events: { create: 1 },
      contains: ['"deletedAt":null'],
      check: (res) => expect(res.body.docs.map((d: any) => d.id)).toEqual([ids.garden]),
    },
    {
      name: 'a collection without trash keeps a final delete',
      as: 'admin',
      method: 'POST',
      url: '/notes',
      body: { text: 'n' },
      status: 201,
      events: { create: 1 },
      contains: ['"text":"n"'],
      notContains: ['deletedAt'],
    },
    {
      name: 'its delete removes the row',
      setup: async (t) => {
        ids.note = (await asAdmin(t, 'POST', '/notes', { text: 'n' })).body.doc.id;
      },
      as: 'admin',
      method: 'DELETE',
      url: () => `/notes/${ids.note}`,
      status: 200,
      events: { delete: 1 },
      contains: ['"text":"n"', 'Deleted successfully.'],
      notContains: ['deletedAt'],
      check: async (_res, t) =>
        expect(await t.cms.store.get('SELECT id FROM notes WHERE id = ?', [ids.note])).toBeNull(),
    },
    {
      name: 'deletedAt is not a field of a collection without trash',
      as: 'admin',
      method: 'GET',
      url: '/notes?where[deletedAt][exists]=true',
      status: 400,
      contains: ['"field":"deletedAt"', 'The field \\"deletedAt\\" does not exist.'],
    },
    {
      name: 'trash it once more',
      as: 'admin',
      method: 'DELETE',
      url: () => `/posts/${ids.garden}`,
      status: 200,
      events: { delete: 1 },
      contains: ['"title":"Gardening tips"', '"deletedAt":"'],
    },
    {
      name: 'the job runner keeps it while younger than keepDays',
      method: 'POST',
      url: '/jobs/run',
      headers: cron,
      status: 200,
      setup: async (t: TestServer) => {
        await trashGarden(t);
        t.clock.advance(29 * DAY);
      },
      contains: ['"jobs":{"ran":'],
      events: {},
      check: async (_res, t) =>
        expect(await t.cms.store.get('SELECT id FROM posts WHERE id = ?', [ids.garden])).not.toBeNull(),
    },
    {
      name: 'and empties it once older',
      method: 'POST',
      url: '/jobs/run',
      headers: cron,
      status: 200,
      setup: async (t: TestServer) => {
        await trashGarden(t);
        t.clock.advance(30 * DAY + 1000);
      },
      contains: ['"jobs":{"ran":'],
      events: {},
      check: async (_res, t) =>
        expect(await t.cms.store.get('SELECT id FROM posts WHERE id = ?', [ids.garden])).toBeNull(),
    },
  ],
  {
    // Two live posts and a link to the first; a row that needs the first in the trash puts it there.
    async seed(t) {
      ids.garden = (await asAdmin(t, 'POST', '/posts', { title: 'Gardening tips', slug: 'garden' })).body.doc.id;
      ids.kept = (await asAdmin(t, 'POST', '/posts', { title: 'Kept around', slug: 'kept' })).body.doc.id;
      ids.link = (await asAdmin(t, 'POST', '/links', { post: ids.garden })).body.doc.id;
    },
  },
);
