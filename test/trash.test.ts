/**
 * The trash (docs/trash.md): a delete in a collection with `trash` stamps `deletedAt`; the document leaves
 * lists, counts, reads, search, relationship population and GraphQL; `trash=true` lets it through, a PATCH
 * of `deletedAt: null` restores it, a DELETE with `trash=true` removes it for good, and the job runner
 * empties it after `keepDays`. Collections without `trash` keep a final delete.
 */
import { expect } from 'bun:test';
import { runScenarios, type TestServer } from './harness.ts';
import type { UserConfig } from '../src/config/types.ts';

const DAY = 86_400_000;
const JOBS_SECRET = 'trash-jobs-secret';
const cron = { authorization: `Bearer ${JOBS_SECRET}` };
const ids: Record<string, number> = {};
const remember = (name: string) => (res: { body: any }) => { ids[name] = res.body.doc.id; };
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

runScenarios('the trash', config, [
  { name: 'create a post', as: 'admin', method: 'POST', url: '/posts', body: { title: 'Gardening tips', slug: 'garden' }, status: 201, check: remember('garden') },
  { name: 'create another post', as: 'admin', method: 'POST', url: '/posts', body: { title: 'Kept around', slug: 'kept' }, status: 201, check: remember('kept') },
  { name: 'a link to the first', as: 'admin', method: 'POST', url: '/links', body: () => ({ post: ids.garden }), status: 201, check: remember('link') },
  { name: 'a new document is not in the trash', as: 'admin', method: 'GET', url: () => `/posts/${ids.garden}`, status: 200, contains: ['"deletedAt":null'] },
  {
    name: 'delete moves it to the trash, announced as a delete', as: 'admin', method: 'DELETE', url: () => `/posts/${ids.garden}`, status: 200, events: { delete: 1 },
    check: (res, t) => expect(res.body.doc).toMatchObject({ id: ids.garden, deletedAt: new Date(t.clock.now()).toISOString() }),
  },
  { name: 'the list leaves it out', as: 'admin', method: 'GET', url: '/posts', status: 200, contains: ['"totalDocs":1', '"Kept around"'], notContains: ['Gardening'] },
  { name: 'the count leaves it out', as: 'admin', method: 'GET', url: '/posts/count', status: 200, contains: ['"totalDocs":1'] },
  { name: 'reading it is a 404', as: 'admin', method: 'GET', url: () => `/posts/${ids.garden}`, status: 404 },
  { name: 'updating it is a 404', as: 'admin', method: 'PATCH', url: () => `/posts/${ids.garden}`, body: { title: 'x' }, status: 404 },
  { name: 'deleting it again without trash=true is a 404', as: 'admin', method: 'DELETE', url: () => `/posts/${ids.garden}`, status: 404 },
  { name: 'search leaves it out', as: 'admin', method: 'GET', url: '/posts?search=gardening', status: 200, contains: ['"totalDocs":0'] },
  { name: 'search across collections leaves it out', as: 'admin', method: 'GET', url: '/search?q=gardening', status: 200, notContains: ['Gardening'] },
  { name: 'a relationship to it reads null', as: 'admin', method: 'GET', url: () => `/links/${ids.link}?depth=1`, status: 200, contains: ['"post":null'] },
  { name: 'GraphQL leaves it out', as: 'admin', method: 'POST', url: '/graphql', body: graphql('{ Posts { totalDocs docs { title } } }'), status: 200, contains: ['"totalDocs":1'], notContains: ['Gardening'] },
  { name: 'GraphQL reads it as missing', as: 'admin', method: 'POST', url: '/graphql', body: () => graphql(`{ Post(id: ${ids.garden}) { title } }`), status: 200, notContains: ['Gardening'] },
  { name: 'trash=true lists it beside the others', as: 'admin', method: 'GET', url: '/posts?trash=true', status: 200, contains: ['"totalDocs":2', 'Gardening'] },
  { name: 'trash=true with deletedAt exists lists only the trash', as: 'admin', method: 'GET', url: '/posts?trash=true&where[deletedAt][exists]=true', status: 200, contains: ['"totalDocs":1', 'Gardening'], notContains: ['Kept around'] },
  { name: 'deletedAt exists without trash=true finds nothing', as: 'admin', method: 'GET', url: '/posts?where[deletedAt][exists]=true', status: 200, contains: ['"totalDocs":0'] },
  { name: 'trash=true counts it', as: 'admin', method: 'GET', url: '/posts/count?trash=true', status: 200, contains: ['"totalDocs":2'] },
  { name: 'trash=true reads it', as: 'admin', method: 'GET', url: () => `/posts/${ids.garden}?trash=true`, status: 200, contains: ['Gardening', '"deletedAt":"'] },
  { name: 'a trashed document keeps its unique values', as: 'admin', method: 'POST', url: '/posts', body: { title: 'Clash', slug: 'garden' }, status: 400, contains: ['"field":"slug"'] },
  { name: 'deletedAt cannot be set on create', as: 'admin', method: 'POST', url: '/posts', body: { title: 'Sneaky', deletedAt: '2020-01-01T00:00:00.000Z' }, status: 201, contains: ['"deletedAt":null'], check: remember('sneaky') },
  { name: 'anonymous readers are refused the trash like any read', method: 'GET', url: '/posts?trash=true', status: 401 },
  {
    name: 'PATCH deletedAt: null with trash=true restores, announced as a create', as: 'admin', method: 'PATCH', url: () => `/posts/${ids.garden}?trash=true`, body: { deletedAt: null }, status: 200, events: { create: 1 },
    check: (res) => expect(res.body.doc).toMatchObject({ id: ids.garden, title: 'Gardening tips', deletedAt: null }),
  },
  { name: 'the restored document is back in the list', as: 'admin', method: 'GET', url: '/posts', status: 200, contains: ['Gardening'] },
  { name: 'and in search', as: 'admin', method: 'GET', url: '/posts?search=gardening', status: 200, contains: ['"totalDocs":1'] },
  { name: 'and populated again', as: 'admin', method: 'GET', url: () => `/links/${ids.link}?depth=1`, status: 200, contains: ['Gardening'] },
  {
    name: 'PATCH of a date moves it to the trash too (Payload clients)', as: 'admin', method: 'PATCH', url: () => `/posts/${ids.kept}`, body: { deletedAt: '2026-01-01T00:00:00.000Z' }, status: 200, events: { delete: 1 },
    check: (res) => expect(res.body.doc.deletedAt).toBeString(),
  },
  {
    name: 'DELETE with trash=true of a trashed document removes it for good, without a second announcement', as: 'admin', method: 'DELETE', url: () => `/posts/${ids.kept}?trash=true`, status: 200, events: {},
    check: async (_res, t) => expect(await t.cms.store.get('SELECT id FROM posts WHERE id = ?', [ids.kept])).toBeNull(),
  },
  { name: 'it is gone from trash=true too', as: 'admin', method: 'GET', url: () => `/posts/${ids.kept}?trash=true`, status: 404 },
  {
    name: 'DELETE with trash=true of a live document skips the trash', as: 'admin', method: 'DELETE', url: () => `/posts/${ids.sneaky}?trash=true`, status: 200, events: { delete: 1 },
    check: async (_res, t) => expect(await t.cms.store.get('SELECT id FROM posts WHERE id = ?', [ids.sneaky])).toBeNull(),
  },
  { name: 'a bulk delete moves every match to the trash', as: 'admin', method: 'DELETE', url: '/posts?where[title][equals]=Gardening tips', status: 200, events: { delete: 1 }, contains: ['"deletedAt":"'] },
  { name: 'a bulk restore with trash=true', as: 'admin', method: 'PATCH', url: '/posts?trash=true&where[deletedAt][exists]=true', body: { deletedAt: null }, status: 200, events: { create: 1 }, contains: ['"deletedAt":null'] },
  { name: 'a collection without trash keeps a final delete', as: 'admin', method: 'POST', url: '/notes', body: { text: 'n' }, status: 201, check: remember('note') },
  {
    name: 'its delete removes the row', as: 'admin', method: 'DELETE', url: () => `/notes/${ids.note}`, status: 200, events: { delete: 1 }, notContains: ['deletedAt'],
    check: async (_res, t) => expect(await t.cms.store.get('SELECT id FROM notes WHERE id = ?', [ids.note])).toBeNull(),
  },
  { name: 'deletedAt is not a field of a collection without trash', as: 'admin', method: 'GET', url: '/notes?where[deletedAt][exists]=true', status: 400 },
  { name: 'trash it once more', as: 'admin', method: 'DELETE', url: () => `/posts/${ids.garden}`, status: 200, events: { delete: 1 } },
  {
    name: 'the job runner keeps it while younger than keepDays', method: 'POST', url: '/jobs/run', headers: cron, status: 200, setup: (t: TestServer) => t.clock.advance(29 * DAY), events: {},
    check: async (_res, t) => expect(await t.cms.store.get('SELECT id FROM posts WHERE id = ?', [ids.garden])).not.toBeNull(),
  },
  {
    name: 'and empties it once older', method: 'POST', url: '/jobs/run', headers: cron, status: 200, setup: (t: TestServer) => t.clock.advance(DAY + 1000), events: {},
    check: async (_res, t) => expect(await t.cms.store.get('SELECT id FROM posts WHERE id = ?', [ids.garden])).toBeNull(),
  },
]);
